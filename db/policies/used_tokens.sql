-- Every policy of used_tokens: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('used_tokens');

CREATE POLICY used_tokens_auth ON used_tokens TO portal_auth USING (true) WITH CHECK (true);
