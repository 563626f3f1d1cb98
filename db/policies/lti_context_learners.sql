-- Every policy of lti_context_learners: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('lti_context_learners');

CREATE POLICY lti_context_learners_auth ON lti_context_learners TO portal_auth USING (true) WITH CHECK (true);
