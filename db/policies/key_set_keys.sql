-- Every policy of key_set_keys: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('key_set_keys');

CREATE POLICY key_set_keys_agent ON key_set_keys TO portal_agent USING (true) WITH CHECK (true);
CREATE POLICY key_set_keys_auth ON key_set_keys FOR SELECT TO portal_auth USING (true);
