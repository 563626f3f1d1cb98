-- Every policy of question_versions: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('question_versions');

CREATE POLICY question_versions_offline ON question_versions FOR SELECT TO portal_auth USING (true);
CREATE POLICY question_versions_admin ON question_versions FOR SELECT TO portal_app USING ((SELECT app_role()) = 'admin');
CREATE POLICY question_versions_write ON question_versions FOR INSERT TO portal_app WITH CHECK ((SELECT app_role()) = 'admin');
