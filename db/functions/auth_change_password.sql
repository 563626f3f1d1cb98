-- Changes the signed-in caller's password, given a reserved attempt (auth_login_begin with
-- their own username) and the proof of the current password. Every session of the account
-- ends (the trigger); this browser gets the new token's session. False when the proof fails.
CREATE OR REPLACE FUNCTION public.auth_change_password(p_attempt uuid, p_proof bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    reserved record;
    account record;
BEGIN
    IF me IS NULL THEN
        RETURN false;
    END IF;
    DELETE FROM public.login_attempts a WHERE a.id = p_attempt AND a.expires_at >= now_at RETURNING * INTO reserved;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    SELECT u.id, u.password_hash INTO account FROM public.users u WHERE u.id = me AND lower(u.username) = reserved.username;
    IF NOT FOUND OR NOT public.auth_proof_matches(account.password_hash, p_proof) THEN
        RETURN false;
    END IF;
    UPDATE public.login_throttle SET failures = 0, blocked_until = NULL WHERE key_hash = reserved.account_key;
    UPDATE public.users SET password_hash = p_new_hash WHERE id = me;
    PERFORM public.auth_open_session(me, p_token, p_csrf, p_user_agent, now_at);
    RETURN true;
END
$function$;
ALTER FUNCTION auth_change_password(p_attempt uuid, p_proof bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_change_password(p_attempt uuid, p_proof bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_change_password(p_attempt uuid, p_proof bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text) TO portal_app;
