-- Every policy of lti_contexts: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('lti_contexts');

CREATE POLICY lti_contexts_auth ON lti_contexts TO portal_auth USING (true) WITH CHECK (true);
-- The class's teacher sees the course behind it (the roster's address); admins see all.
CREATE POLICY lti_contexts_teacher ON lti_contexts FOR SELECT TO portal_app
    USING (app_role() = 'admin' OR class_id = ANY ((SELECT app_taught_classes())::uuid[]));
