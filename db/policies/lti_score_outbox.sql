-- Every policy of lti_score_outbox: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('lti_score_outbox');

CREATE POLICY lti_score_outbox_admin ON lti_score_outbox FOR SELECT TO portal_app USING (app_role() = 'admin');
CREATE POLICY lti_score_outbox_auth ON lti_score_outbox TO portal_auth USING (true) WITH CHECK (true);
