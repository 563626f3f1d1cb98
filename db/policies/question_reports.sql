-- Every policy of question_reports: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('question_reports');

CREATE POLICY question_reports_insert ON question_reports FOR INSERT TO portal_app WITH CHECK (user_id = (SELECT app_user_id()));
CREATE POLICY question_reports_read ON question_reports FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin');
CREATE POLICY question_reports_resolve ON question_reports FOR UPDATE TO portal_app
    USING ((SELECT app_role()) = 'admin') WITH CHECK ((SELECT app_role()) = 'admin');
