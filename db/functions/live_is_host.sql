-- Whether the caller hosts (or, as an admin, may run) the event. It used to resolve
-- live_events through the caller's search path, where a TEMP table could stand in for it.
CREATE OR REPLACE FUNCTION public.live_is_host(p_event uuid)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT (SELECT public.app_role()) = 'admin' OR p_event = ANY (public.app_hosted_events())
$function$;
ALTER FUNCTION live_is_host(p_event uuid) OWNER TO portal_auth;
GRANT EXECUTE ON FUNCTION live_is_host(p_event uuid) TO portal_app;
