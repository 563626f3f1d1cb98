CREATE OR REPLACE FUNCTION public.lti_signing_key(OUT kid text, OUT private_pem text)
 RETURNS record
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT k.kid, k.private_pem FROM public.lti_tool_keys k WHERE k.retired_at IS NULL
$function$;
REVOKE ALL ON FUNCTION lti_signing_key(OUT kid text, OUT private_pem text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_signing_key(OUT kid text, OUT private_pem text) TO portal_app;
GRANT EXECUTE ON FUNCTION lti_signing_key(OUT kid text, OUT private_pem text) TO portal_agent;
