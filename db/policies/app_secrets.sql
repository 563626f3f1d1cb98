-- Every policy of app_secrets: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('app_secrets');

CREATE POLICY app_secrets_auth ON app_secrets TO portal_auth USING (true);
