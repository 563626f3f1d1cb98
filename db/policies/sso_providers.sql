-- Every policy of sso_providers: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('sso_providers');

CREATE POLICY sso_providers_admin_add ON sso_providers FOR INSERT TO portal_app WITH CHECK (app_role() = 'admin');
CREATE POLICY sso_providers_admin_change ON sso_providers FOR UPDATE TO portal_app USING (app_role() = 'admin') WITH CHECK (app_role() = 'admin');
CREATE POLICY sso_providers_auth ON sso_providers FOR SELECT TO portal_auth USING (true);
-- The sign-in page lists every provider (its label); admins add and change them.
CREATE POLICY sso_providers_read ON sso_providers FOR SELECT TO portal_app USING (true);
CREATE POLICY sso_providers_agent ON sso_providers FOR SELECT TO portal_agent USING (true);
