-- Every policy of lti_platforms: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('lti_platforms');

CREATE POLICY lti_platforms_admin ON lti_platforms FOR INSERT TO portal_app WITH CHECK (app_role() = 'admin');
-- A launch is checked against the registrations before anyone is signed in: readable by all;
-- written by admins.
CREATE POLICY lti_platforms_read ON lti_platforms FOR SELECT USING (true);
-- The agent reads which sets to fetch from the registrations.
CREATE POLICY lti_platforms_agent ON lti_platforms FOR SELECT TO portal_agent USING (true);
