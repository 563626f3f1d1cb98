CREATE OR REPLACE FUNCTION public.app_guest_key()
 RETURNS bytea
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    RETURN pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.guest_token', true), ''), 'UTF8'));
END
$function$;
GRANT EXECUTE ON FUNCTION app_guest_key() TO portal_app;
