-- Drops every policy of a table: each file of db/policies/ is its table's whole set of
-- policies, so it starts from none, and a policy taken out of the file leaves the database too.
CREATE OR REPLACE FUNCTION public.schema_drop_policies(p_table text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    policy record;
BEGIN
    FOR policy IN SELECT p.policyname FROM pg_catalog.pg_policies p WHERE p.schemaname = 'public' AND p.tablename = p_table LOOP
        EXECUTE format('DROP POLICY %I ON public.%I', policy.policyname, p_table);
    END LOOP;
END
$function$;
REVOKE ALL ON FUNCTION schema_drop_policies(p_table text) FROM PUBLIC;
