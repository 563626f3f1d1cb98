-- Every policy of push_keys: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('push_keys');

-- Only the definer functions: the public half for the app (push_public_key), the private half
-- for the agent (push_signing_key), made once by the agent (push_key_store).
CREATE POLICY push_keys_auth ON push_keys TO portal_auth USING (true) WITH CHECK (true);
