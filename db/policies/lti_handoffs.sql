-- Every policy of lti_handoffs: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('lti_handoffs');

CREATE POLICY lti_handoffs_auth ON lti_handoffs TO portal_auth USING (true) WITH CHECK (true);
