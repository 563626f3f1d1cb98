CREATE OR REPLACE FUNCTION public.app_hosted_events()
 RETURNS uuid[]
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(e.id), '{}') FROM public.live_events e WHERE e.host_id = me);
END
$function$;
ALTER FUNCTION app_hosted_events() OWNER TO portal_auth;
