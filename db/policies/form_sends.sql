-- Every policy of form_sends: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('form_sends');

-- Only the definer functions (owned by portal_auth) read and write it; portal_app has no grant.
CREATE POLICY form_sends_auth ON form_sends TO portal_auth USING (true) WITH CHECK (true);
