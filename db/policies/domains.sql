-- Every policy of domains: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('domains');

CREATE POLICY domains_read ON domains FOR SELECT USING (true);
CREATE POLICY domains_admin ON domains FOR ALL USING ((SELECT app_role()) = 'admin') WITH CHECK ((SELECT app_role()) = 'admin');
