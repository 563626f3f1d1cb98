-- Every policy of class_account_batches: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('class_account_batches');

-- Only the definer functions (owned by portal_auth) read and write it; portal_app has no grant.
CREATE POLICY class_account_batches_auth ON class_account_batches TO portal_auth USING (true) WITH CHECK (true);
