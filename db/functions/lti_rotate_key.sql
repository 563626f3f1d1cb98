-- The owner's rotation: the current key retires (still published for a week), the new one signs.
CREATE OR REPLACE FUNCTION public.lti_rotate_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE public.lti_tool_keys SET retired_at = now() WHERE retired_at IS NULL;
    INSERT INTO public.lti_tool_keys (kid, private_pem, modulus, exponent) VALUES (p_kid, p_private_pem, p_modulus, p_exponent);
$function$;
REVOKE ALL ON FUNCTION lti_rotate_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) FROM PUBLIC;
