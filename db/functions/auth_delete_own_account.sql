-- The signed-in caller deletes their own account (account_erase), confirmed by the database
-- itself: with a password, by a reserved attempt (auth_login_begin with their own username)
-- and the proof of that password; without one (a school's sign-in), by a sign-in of this very
-- session less than ten minutes old. Returns 'deleted', 'wrong' (the proof failed or the
-- sign-in is older: nothing changed) or 'unknown' (nobody signed in).
CREATE OR REPLACE FUNCTION public.auth_delete_own_account(p_attempt uuid, p_proof bytea)
 RETURNS text
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
        RETURN 'unknown';
    END IF;
    SELECT u.id, u.username, u.password_hash INTO account FROM public.users u WHERE u.id = me;
    IF account.password_hash IS NOT NULL THEN
        DELETE FROM public.login_attempts a WHERE a.id = p_attempt AND a.expires_at >= now_at RETURNING * INTO reserved;
        IF NOT FOUND OR reserved.username <> lower(account.username) OR NOT public.auth_proof_matches(account.password_hash, p_proof) THEN
            RETURN 'wrong';
        END IF;
    ELSIF NOT EXISTS (
        SELECT FROM public.auth_sessions s
        WHERE s.user_id = me AND s.created_at > now_at - interval '10 minutes'
          AND s.token_hash = sha256(convert_to(NULLIF(current_setting('app.session_token', true), ''), 'UTF8'))) THEN
        RETURN 'wrong';
    END IF;
    PERFORM public.account_erase(me, NULL, 'self');
    RETURN 'deleted';
END
$function$;
ALTER FUNCTION auth_delete_own_account(p_attempt uuid, p_proof bytea) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_delete_own_account(p_attempt uuid, p_proof bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_delete_own_account(p_attempt uuid, p_proof bytea) TO portal_app;
