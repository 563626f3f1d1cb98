-- The first key, made by the app on first use: refused (false) when a current key exists.
CREATE OR REPLACE FUNCTION public.lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    INSERT INTO public.lti_tool_keys (kid, private_pem, modulus, exponent) VALUES (p_kid, p_private_pem, p_modulus, p_exponent)
    ON CONFLICT DO NOTHING;
    RETURN FOUND;
END
$function$;
REVOKE ALL ON FUNCTION lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) TO portal_app;
GRANT EXECUTE ON FUNCTION lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) TO portal_agent;
