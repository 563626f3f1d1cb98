-- Every policy of exams: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('exams');

-- A draft exam (made in the dashboard, not yet published) is the admins' alone.
CREATE POLICY exams_read ON exams FOR SELECT USING (published OR (SELECT app_role()) = 'admin');
CREATE POLICY exams_admin ON exams FOR ALL USING ((SELECT app_role()) = 'admin') WITH CHECK ((SELECT app_role()) = 'admin');
