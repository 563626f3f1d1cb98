-- The private half of the VAPID key, for the agent alone; NULL before it made one.
CREATE OR REPLACE FUNCTION public.push_signing_key()
 RETURNS text
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT k.private_pem FROM public.push_keys k WHERE k.id = 1
$function$;
ALTER FUNCTION push_signing_key() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION push_signing_key() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_signing_key() TO portal_agent;
