-- Every policy of rate_limits: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('rate_limits');

CREATE POLICY rate_limits_auth ON rate_limits TO portal_auth USING (true) WITH CHECK (true);
