-- The old helpers answer through the new ones, with fixed search paths.
CREATE OR REPLACE FUNCTION public.teaches(p_student uuid)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT p_student = ANY (public.app_students())
$function$;
ALTER FUNCTION teaches(p_student uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION teaches(p_student uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION teaches(p_student uuid) TO portal_app;
