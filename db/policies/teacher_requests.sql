-- Every policy of teacher_requests: the file is the whole set (applying it drops the table's
-- policies first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('teacher_requests');

-- The requester reads their own requests, admins read the queue; nobody writes but the
-- definer functions (portal_app has no write grant).
CREATE POLICY teacher_requests_read ON teacher_requests FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin');
CREATE POLICY teacher_requests_auth ON teacher_requests TO portal_auth USING (true) WITH CHECK (true);
