-- Whether a reset link's token is live (so its page offers the form, or says it has expired);
-- it says nothing of the account.
CREATE OR REPLACE FUNCTION public.auth_reset_link_live(p_token text)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT EXISTS (
        SELECT FROM public.password_resets r
        WHERE r.code_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) AND r.by_mail AND r.used_at IS NULL AND r.expires_at > public.app_now())
$function$;
ALTER FUNCTION auth_reset_link_live(p_token text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_reset_link_live(p_token text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_reset_link_live(p_token text) TO portal_app;
