-- Every policy of sso_exchanges: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('sso_exchanges');

CREATE POLICY sso_exchanges_agent ON sso_exchanges TO portal_agent USING (true) WITH CHECK (true);
CREATE POLICY sso_exchanges_auth ON sso_exchanges TO portal_auth USING (true) WITH CHECK (true);
