-- Every policy of login_throttle: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('login_throttle');

CREATE POLICY login_throttle_auth ON login_throttle TO portal_auth USING (true) WITH CHECK (true);
