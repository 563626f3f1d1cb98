-- Every policy of regions: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('regions');

CREATE POLICY regions_read ON regions FOR SELECT USING (true);
CREATE POLICY regions_admin ON regions FOR ALL USING ((SELECT app_role()) = 'admin') WITH CHECK ((SELECT app_role()) = 'admin');
