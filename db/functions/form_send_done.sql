-- The last step of a form that makes something: where what it made is (a path of this site),
-- for a second send of the same token to lead there. Only the sender's own claim is written.
CREATE OR REPLACE FUNCTION public.form_send_done(p_token text, p_location text)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE public.form_sends f SET location = p_location
    WHERE f.token_hash = sha256(convert_to(p_token, 'UTF8'))
      AND f.user_id IS NOT DISTINCT FROM public.app_user_id()
      AND f.guest_hash IS NOT DISTINCT FROM (CASE WHEN public.app_user_id() IS NULL THEN public.app_guest_key() END)
$function$;
ALTER FUNCTION form_send_done(p_token text, p_location text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION form_send_done(p_token text, p_location text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION form_send_done(p_token text, p_location text) TO portal_app;
