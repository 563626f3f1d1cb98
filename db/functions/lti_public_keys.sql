CREATE OR REPLACE FUNCTION public.lti_public_keys()
 RETURNS TABLE(kid text, modulus text, exponent text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT k.kid, k.modulus, k.exponent FROM public.lti_tool_keys k
    WHERE k.retired_at IS NULL OR k.retired_at > now() - interval '7 days'
    ORDER BY k.created_at DESC, k.kid
$function$;
REVOKE ALL ON FUNCTION lti_public_keys() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_public_keys() TO portal_app;
