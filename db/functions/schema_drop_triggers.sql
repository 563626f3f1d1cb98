-- Drops every trigger of a table (not the ones PostgreSQL makes for foreign keys): each file of
-- db/triggers/ is its table's whole set of triggers, so it starts from none, and a trigger taken
-- out of the file leaves the database too.
CREATE OR REPLACE FUNCTION public.schema_drop_triggers(p_table text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    name text;
BEGIN
    FOR name IN SELECT t.tgname FROM pg_catalog.pg_trigger t
                WHERE t.tgrelid = format('public.%I', p_table)::regclass AND NOT t.tgisinternal LOOP
        EXECUTE format('DROP TRIGGER %I ON public.%I', name, p_table);
    END LOOP;
END
$function$;
REVOKE ALL ON FUNCTION schema_drop_triggers(p_table text) FROM PUBLIC;
