-- Every policy of classes: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('classes');

CREATE POLICY classes_auth ON classes FOR SELECT TO portal_auth USING (true);
CREATE POLICY classes_member ON classes FOR SELECT TO portal_app USING (id = ANY ((SELECT app_member_classes())::uuid[]));
CREATE POLICY classes_teacher ON classes TO portal_app
    USING (teacher_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin')
    WITH CHECK (teacher_id = (SELECT app_user_id()) AND (SELECT app_role()) IN ('teacher', 'admin'));
CREATE POLICY classes_auth_lti ON classes FOR INSERT TO portal_auth WITH CHECK (true);
