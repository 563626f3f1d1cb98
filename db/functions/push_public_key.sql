-- The public half of the portal's VAPID key (a browser subscribes with it); NULL until the
-- agent has made the key.
CREATE OR REPLACE FUNCTION public.push_public_key()
 RETURNS bytea
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT k.public_point FROM public.push_keys k WHERE k.id = 1
$function$;
ALTER FUNCTION push_public_key() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION push_public_key() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_public_key() TO portal_app, portal_agent;
