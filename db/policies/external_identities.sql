-- Every policy of external_identities: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('external_identities');

CREATE POLICY external_identities_auth ON external_identities TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY external_identities_self ON external_identities FOR SELECT TO portal_app USING (user_id = app_user_id());
