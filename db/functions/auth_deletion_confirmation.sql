-- How the signed-in caller confirms deleting their account: with their password when they have
-- one; otherwise whether this session's sign-in is fresh (under ten minutes old), as
-- auth_delete_own_account requires. No row for nobody.
CREATE OR REPLACE FUNCTION public.auth_deletion_confirmation()
 RETURNS TABLE(has_password boolean, fresh_sign_in boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT u.password_hash IS NOT NULL, s.created_at > public.app_now() - interval '10 minutes'
    FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
    WHERE s.token_hash = sha256(convert_to(NULLIF(current_setting('app.session_token', true), ''), 'UTF8')) AND u.disabled_at IS NULL
$function$;
ALTER FUNCTION auth_deletion_confirmation() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_deletion_confirmation() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_deletion_confirmation() TO portal_app;
