CREATE OR REPLACE FUNCTION public.in_class(p_class uuid)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT p_class = ANY (public.app_member_classes())
$function$;
ALTER FUNCTION in_class(p_class uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION in_class(p_class uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION in_class(p_class uuid) TO portal_app;
