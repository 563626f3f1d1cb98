-- Consumes a reserved attempt and checks the proof: the raw Argon2id output of the password
-- with the account's salt and cost, which only someone who knows the password can compute.
-- On success the attempt stops counting as a failure, the address is remembered, and a new
-- session is made for the token's hash. Returns the user's id, or NULL for any failure.
CREATE OR REPLACE FUNCTION public.auth_login_finish(p_attempt uuid, p_proof bytea, p_token text, p_csrf text, p_user_agent text, p_address text)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    reserved record;
    account record;
BEGIN
    DELETE FROM public.login_attempts a WHERE a.id = p_attempt AND a.expires_at >= now_at RETURNING * INTO reserved;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    SELECT u.id, u.password_hash, u.disabled_at INTO account FROM public.users u WHERE lower(u.username) = reserved.username;
    IF NOT FOUND OR account.disabled_at IS NOT NULL OR NOT public.auth_proof_matches(account.password_hash, p_proof) THEN
        RETURN NULL;
    END IF;
    UPDATE public.login_throttle SET failures = 0, blocked_until = NULL WHERE key_hash = reserved.account_key;
    UPDATE public.login_throttle SET failures = greatest(0, failures - 1),
           blocked_until = CASE WHEN failures - 1 < 50 THEN NULL ELSE blocked_until END
    WHERE key_hash = reserved.address_key;
    INSERT INTO public.login_addresses (user_id, address_hash, last_success_at)
    VALUES (account.id, sha256(convert_to(p_address, 'UTF8')), now_at)
    ON CONFLICT (user_id, address_hash) DO UPDATE SET last_success_at = EXCLUDED.last_success_at;
    DELETE FROM public.login_addresses a WHERE a.user_id = account.id AND a.address_hash NOT IN (
        SELECT b.address_hash FROM public.login_addresses b WHERE b.user_id = account.id ORDER BY b.last_success_at DESC LIMIT 20);
    PERFORM public.auth_open_session(account.id, p_token, p_csrf, p_user_agent, now_at);
    RETURN account.id;
END
$function$;
ALTER FUNCTION auth_login_finish(p_attempt uuid, p_proof bytea, p_token text, p_csrf text, p_user_agent text, p_address text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_login_finish(p_attempt uuid, p_proof bytea, p_token text, p_csrf text, p_user_agent text, p_address text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_login_finish(p_attempt uuid, p_proof bytea, p_token text, p_csrf text, p_user_agent text, p_address text) TO portal_app;
