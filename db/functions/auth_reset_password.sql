-- Takes a one-time reset code with the account's username and sets the new password (its hash,
-- made by the caller): only with a live code issued for that very account, once. Every session
-- of the account ends (the trigger) and this browser gets the new token's session. Each try
-- counts against the client's address and the username before anything is looked up, so codes
-- cannot be guessed. Returns the user's id; NULL for
-- any failure, the same whether the username exists or not; 'retry_after' seconds when limited
-- (auth_reset_wait states the limits).
CREATE OR REPLACE FUNCTION public.auth_reset_password(
    p_username text, p_code_hash bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text, p_address text)
 RETURNS TABLE(user_id uuid, retry_after integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    login_name text := lower(btrim(p_username));
    wait integer;
    account record;
    reset record;
BEGIN
    wait := public.auth_reset_wait(p_address, p_username, true);
    IF wait > 0 THEN
        RETURN QUERY SELECT NULL::uuid, wait;
        RETURN;
    END IF;
    -- A teacher-made account chooses its first password this way; a school's sign-in has none here.
    SELECT u.id, u.disabled_at INTO account FROM public.users u
    WHERE lower(u.username) = login_name AND (u.password_hash IS NOT NULL OR u.made_by IS NOT NULL);
    IF NOT FOUND OR account.disabled_at IS NOT NULL OR p_code_hash IS NULL OR p_new_hash IS NULL THEN
        RETURN QUERY SELECT NULL::uuid, 0;
        RETURN;
    END IF;
    UPDATE public.password_resets r SET used_at = now_at
    WHERE r.user_id = account.id AND r.code_hash = p_code_hash AND NOT r.by_mail AND r.used_at IS NULL AND r.expires_at > now_at
    RETURNING r.* INTO reset;
    IF NOT FOUND THEN
        RETURN QUERY SELECT NULL::uuid, 0;
        RETURN;
    END IF;
    UPDATE public.users SET password_hash = p_new_hash WHERE id = account.id;
    -- The account's sign-ins start afresh: a forgotten password's failures no longer count.
    UPDATE public.login_throttle SET failures = 0, blocked_until = NULL
    WHERE key_hash = sha256(convert_to('account:' || login_name, 'UTF8'));
    PERFORM public.auth_open_session(account.id, p_token, p_csrf, p_user_agent, now_at);
    RETURN QUERY SELECT account.id, 0;
END
$function$;
ALTER FUNCTION auth_reset_password(p_username text, p_code_hash bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text, p_address text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_reset_password(p_username text, p_code_hash bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text, p_address text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_reset_password(p_username text, p_code_hash bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text, p_address text) TO portal_app;
