-- The key that signs "this question was shown at" stamps in answer forms: the server measures
-- the time spent, a browser cannot claim it.
CREATE OR REPLACE FUNCTION public.app_form_key()
 RETURNS bytea
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT s.value FROM public.app_secrets s WHERE s.name = 'form-signing'
$function$;
ALTER FUNCTION app_form_key() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION app_form_key() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_form_key() TO portal_app;
