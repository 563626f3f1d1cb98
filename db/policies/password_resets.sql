-- Every policy of password_resets: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('password_resets');

-- Only the definer functions (owned by portal_auth) touch the codes; portal_app has no policy.
CREATE POLICY password_resets_auth ON password_resets TO portal_auth USING (true) WITH CHECK (true);
