-- A push service said a subscription is gone (404, 410): it is forgotten.
CREATE OR REPLACE FUNCTION public.push_gone(p_subscription uuid)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    DELETE FROM public.push_subscriptions s WHERE s.id = p_subscription
$function$;
ALTER FUNCTION push_gone(p_subscription uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION push_gone(p_subscription uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_gone(p_subscription uuid) TO portal_agent;
