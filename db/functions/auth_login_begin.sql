-- Reserves one sign-in attempt for a username from a client address, before any hashing:
-- counted at once as a failure (a success gives it back), so however many arrive together,
-- no more than the limit are ever tried. Returns the attempt, and the salt and cost to hash
-- the password with: the account's, or for an unknown username a decoy derived from it (the
-- same every time, so the two cannot be told apart). When the limit is reached: only
-- retry_after, in seconds.
CREATE OR REPLACE FUNCTION public.auth_login_begin(p_username text, p_address text)
 RETURNS TABLE(attempt uuid, salt bytea, memlimit bigint, opslimit integer, retry_after integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    login_name text := lower(btrim(p_username));
    account_id uuid;
    account_hash text;
    known boolean := false;
    account_key bytea;
    address_key bytea;
    wait_until timestamptz;
    throttle record;
    hash_salt bytea;
    hash_memlimit bigint;
    hash_opslimit integer;
BEGIN
    SELECT u.id, u.password_hash INTO account_id, account_hash FROM public.users u WHERE lower(u.username) = login_name;
    IF account_id IS NOT NULL THEN
        known := EXISTS (SELECT 1 FROM public.login_addresses a
                         WHERE a.user_id = account_id AND a.address_hash = sha256(convert_to(p_address, 'UTF8')));
    END IF;
    account_key := sha256(convert_to(CASE WHEN known THEN 'account:' || login_name || '@' || p_address ELSE 'account:' || login_name END, 'UTF8'));
    address_key := sha256(convert_to('address:' || p_address, 'UTF8'));

    -- Both rows exist and are locked, in one order, so concurrent attempts queue here.
    INSERT INTO public.login_throttle (key_hash)
    SELECT k FROM unnest(ARRAY[account_key, address_key]) AS k ORDER BY k
    ON CONFLICT (key_hash) DO NOTHING;
    FOR throttle IN SELECT * FROM public.login_throttle t WHERE t.key_hash IN (account_key, address_key) ORDER BY t.key_hash FOR UPDATE LOOP
        -- Quiet for 15 minutes: the slate is clean again.
        IF throttle.last_failure_at IS NOT NULL AND throttle.last_failure_at < now_at - interval '15 minutes'
           AND (throttle.blocked_until IS NULL OR throttle.blocked_until <= now_at) THEN
            UPDATE public.login_throttle SET failures = 0, blocked_until = NULL WHERE key_hash = throttle.key_hash;
        ELSIF throttle.blocked_until > now_at THEN
            wait_until := greatest(wait_until, throttle.blocked_until);
        END IF;
    END LOOP;
    IF wait_until IS NOT NULL THEN
        RETURN QUERY SELECT NULL::uuid, NULL::bytea, NULL::bigint, NULL::integer,
                            greatest(1, ceil(extract(epoch FROM wait_until - now_at)))::integer;
        RETURN;
    END IF;
    -- Count it now; past the limit (5 per account, 50 per address) the key backs off.
    UPDATE public.login_throttle t
    SET failures = t.failures + 1, last_failure_at = now_at,
        blocked_until = CASE WHEN t.failures + 1 >= CASE WHEN t.key_hash = address_key THEN 50 ELSE 5 END
                             THEN now_at + least(interval '15 minutes',
                                                 interval '30 seconds' * power(2, t.failures + 1 - CASE WHEN t.key_hash = address_key THEN 50 ELSE 5 END))
                        END
    WHERE t.key_hash IN (account_key, address_key);

    -- Keep the tables small: expired attempts and keys quiet for a day go.
    DELETE FROM public.login_attempts WHERE id IN (SELECT a.id FROM public.login_attempts a WHERE a.expires_at < now_at LIMIT 20);
    DELETE FROM public.login_throttle WHERE key_hash IN (
        SELECT t.key_hash FROM public.login_throttle t WHERE t.last_failure_at < now_at - interval '1 day' LIMIT 20);

    SELECT p.salt, p.memlimit, p.opslimit INTO hash_salt, hash_memlimit, hash_opslimit FROM public.auth_hash_parts(account_hash) AS p;
    IF hash_salt IS NULL THEN
        hash_salt := substring(sha256((SELECT s.value FROM public.app_secrets s WHERE s.name = 'login-decoy') || convert_to(login_name, 'UTF8')) FROM 1 FOR 16);
        hash_memlimit := 19456::bigint * 1024;
        hash_opslimit := 2;
    END IF;
    RETURN QUERY
        INSERT INTO public.login_attempts AS a (username, account_key, address_key, expires_at)
        VALUES (login_name, account_key, address_key, now_at + interval '5 minutes')
        RETURNING a.id, hash_salt, hash_memlimit, hash_opslimit, 0;
END
$function$;
ALTER FUNCTION auth_login_begin(p_username text, p_address text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_login_begin(p_username text, p_address text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_login_begin(p_username text, p_address text) TO portal_app;
