-- Every policy of login_addresses: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('login_addresses');

CREATE POLICY login_addresses_auth ON login_addresses TO portal_auth USING (true) WITH CHECK (true);
