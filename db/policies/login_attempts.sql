-- Every policy of login_attempts: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('login_attempts');

CREATE POLICY login_attempts_auth ON login_attempts TO portal_auth USING (true) WITH CHECK (true);
