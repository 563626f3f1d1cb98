-- A registration asks for its key set at once.
CREATE OR REPLACE FUNCTION public.key_sets_registered()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM pg_notify('key_sets', '');
    RETURN NULL;
END
$function$;
