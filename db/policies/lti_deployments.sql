-- Every policy of lti_deployments: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('lti_deployments');

CREATE POLICY lti_deployments_admin ON lti_deployments FOR INSERT TO portal_app WITH CHECK (app_role() = 'admin');
CREATE POLICY lti_deployments_read ON lti_deployments FOR SELECT USING (true);
