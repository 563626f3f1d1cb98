-- Every policy of email_verifications: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('email_verifications');

-- Only the definer functions (owned by portal_auth) touch the links; portal_app has no policy.
CREATE POLICY email_verifications_auth ON email_verifications TO portal_auth USING (true) WITH CHECK (true);
