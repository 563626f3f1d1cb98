-- Every policy of key_sets: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('key_sets');

CREATE POLICY key_sets_agent ON key_sets TO portal_agent USING (true) WITH CHECK (true);
CREATE POLICY key_sets_auth ON key_sets TO portal_auth USING (true) WITH CHECK (true);
-- How each set stands (the admin pages say so); public keys, nothing secret.
CREATE POLICY key_sets_read ON key_sets FOR SELECT TO portal_app USING (true);
