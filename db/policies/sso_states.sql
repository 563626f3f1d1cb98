-- Every policy of sso_states: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('sso_states');

CREATE POLICY sso_states_auth ON sso_states TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY sso_states_agent ON sso_states FOR SELECT TO portal_agent USING (true);
