-- Takes a reset link's token (sent by mail) and sets the new password (its hash, made by the
-- caller): only with a live token, once. Every session of the account ends (the trigger) and
-- this browser gets the new token's session. Returns the user's id, NULL when the token is not
-- live or the account is disabled.
CREATE OR REPLACE FUNCTION public.auth_reset_by_link(
    p_token text, p_new_hash text, p_session_token text, p_csrf text, p_user_agent text)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    reset record;
    account record;
BEGIN
    IF p_new_hash IS NULL THEN
        RETURN NULL;
    END IF;
    UPDATE public.password_resets r SET used_at = now_at
    WHERE r.code_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) AND r.by_mail AND r.used_at IS NULL AND r.expires_at > now_at
    RETURNING r.* INTO reset;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    SELECT u.id, u.username, u.disabled_at INTO account FROM public.users u WHERE u.id = reset.user_id;
    IF account.disabled_at IS NOT NULL THEN
        RETURN NULL;
    END IF;
    UPDATE public.users SET password_hash = p_new_hash WHERE id = account.id;
    UPDATE public.login_throttle SET failures = 0, blocked_until = NULL
    WHERE key_hash = sha256(convert_to('account:' || lower(account.username), 'UTF8'));
    PERFORM public.auth_open_session(account.id, p_session_token, p_csrf, p_user_agent, now_at);
    RETURN account.id;
END
$function$;
ALTER FUNCTION auth_reset_by_link(p_token text, p_new_hash text, p_session_token text, p_csrf text, p_user_agent text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_reset_by_link(p_token text, p_new_hash text, p_session_token text, p_csrf text, p_user_agent text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_reset_by_link(p_token text, p_new_hash text, p_session_token text, p_csrf text, p_user_agent text) TO portal_app;
