-- Every policy of lti_states: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('lti_states');

CREATE POLICY lti_states_auth ON lti_states TO portal_auth USING (true) WITH CHECK (true);
