-- Trust nothing the app role asserts (DESIGN §5).
--
-- Until now row-level security read who the request was for from settings the app chose
-- (app.user_id, app.role): a portal_app connection that ran set_config('app.role', 'admin')
-- was an admin. From here on the database decides from something the app cannot invent for
-- another user: the session cookie's token, set per transaction as app.session_token and
-- resolved by SECURITY DEFINER functions to the user and the role stored in users.role.
-- The guest cookie's token likewise (app.guest_token): only its hash is stored.
--
-- Also here: passwords checked by the database (the app never reads a hash), login limits
-- kept in the database and reserved before the expensive hashing, answers admitted only to
-- open sessions with their correctness computed here, sessions finished and scored here,
-- class membership that a teacher cannot restore, live results computed here, fixed
-- search paths on every function, no temporary objects for the app role, and questions an
-- admin keeps for exams only.

-- ---------------------------------------------------------------------------------------------
-- No temporary objects: a TEMP table named like one of ours must never shadow it.
DO $$ BEGIN EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database()); END $$;
-- Except where PostgreSQL itself needs one: REFRESH MATERIALIZED VIEW CONCURRENTLY builds its
-- diff in a temporary table, as the view's owner.
DO $$ BEGIN EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO portal_leaderboard', current_database()); END $$;

-- Handing functions to portal_auth needs it to have CREATE on the schema, for this migration.
GRANT CREATE ON SCHEMA public TO portal_auth;

-- ---------------------------------------------------------------------------------------------
-- The database's clock as the server sees it: real time plus an offset that only the owner can
-- set. It is zero in production; the tests move it together with the server's injected clock,
-- so deadlines and days are decided by the same clock in both places.
CREATE TABLE server_clock (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    offset_seconds double precision NOT NULL DEFAULT 0
);
INSERT INTO server_clock DEFAULT VALUES;
GRANT SELECT ON server_clock TO PUBLIC;

CREATE FUNCTION app_now() RETURNS timestamptz
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT pg_catalog.now() + pg_catalog.make_interval(secs => c.offset_seconds) FROM public.server_clock c
$$;

-- Random secrets the definer functions use (a decoy salt for unknown accounts; the key that
-- signs the time a question was shown). Only portal_auth reads them.
CREATE TABLE app_secrets (
    name text PRIMARY KEY,
    value bytea NOT NULL CHECK (length(value) = 32)
);
ALTER TABLE app_secrets ENABLE ROW LEVEL SECURITY;
ALTER TABLE app_secrets FORCE ROW LEVEL SECURITY;
CREATE POLICY app_secrets_auth ON app_secrets TO portal_auth USING (true);
GRANT SELECT ON app_secrets TO portal_auth;
-- gen_random_uuid() draws from the operating system's strong generator.
INSERT INTO app_secrets (name, value) VALUES
    ('login-decoy', sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || clock_timestamp()::text, 'UTF8'))),
    ('form-signing', sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || clock_timestamp()::text, 'UTF8')));

-- The key that signs "this question was shown at" stamps in answer forms: the server measures
-- the time spent, a browser cannot claim it.
CREATE FUNCTION app_form_key() RETURNS bytea
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT s.value FROM public.app_secrets s WHERE s.name = 'form-signing'
$$;

-- ---------------------------------------------------------------------------------------------
-- Who is asking. Row-level policies call these once per statement, as (SELECT app_user_id()).

-- The signed-in user of this transaction: the session whose token's hash matches
-- app.session_token, of an enabled account. set_config alone grants nothing: the token must
-- be a live session's.
CREATE OR REPLACE FUNCTION app_user_id() RETURNS uuid
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT s.user_id FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
    WHERE s.token_hash = pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.session_token', true), ''), 'UTF8'))
      AND u.disabled_at IS NULL
$$;

-- The role of that user as users.role stores it; 'anonymous' when nobody is signed in.
CREATE OR REPLACE FUNCTION app_role() RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT COALESCE((
        SELECT u.role FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
        WHERE s.token_hash = pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.session_token', true), ''), 'UTF8'))
          AND u.disabled_at IS NULL), 'anonymous')
$$;

-- A guest's key: the hash of the guest cookie's token (app.guest_token). Nobody can name
-- another guest's key without that guest's cookie.
CREATE OR REPLACE FUNCTION app_guest_key() RETURNS bytea
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.guest_token', true), ''), 'UTF8'))
$$;

-- The students currently in the caller's classes (a teacher's or an admin's own classes).
CREATE FUNCTION app_students() RETURNS uuid[]
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT COALESCE(array_agg(DISTINCT m.user_id), '{}')
    FROM public.class_members m JOIN public.classes c ON c.id = m.class_id
    WHERE m.left_at IS NULL AND c.teacher_id = (SELECT public.app_user_id())
      AND (SELECT public.app_role()) IN ('teacher', 'admin')
$$;

-- The classes the caller teaches, and the ones they are a current member of.
CREATE FUNCTION app_taught_classes() RETURNS uuid[]
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT COALESCE(array_agg(c.id), '{}') FROM public.classes c WHERE c.teacher_id = (SELECT public.app_user_id())
$$;
CREATE FUNCTION app_member_classes() RETURNS uuid[]
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT COALESCE(array_agg(m.class_id), '{}') FROM public.class_members m
    WHERE m.user_id = (SELECT public.app_user_id()) AND m.left_at IS NULL
$$;

-- The live events the caller hosts.
CREATE FUNCTION app_hosted_events() RETURNS uuid[]
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT COALESCE(array_agg(e.id), '{}') FROM public.live_events e WHERE e.host_id = (SELECT public.app_user_id())
$$;

ALTER FUNCTION app_user_id() OWNER TO portal_auth;
ALTER FUNCTION app_role() OWNER TO portal_auth;
ALTER FUNCTION app_form_key() OWNER TO portal_auth;
ALTER FUNCTION app_students() OWNER TO portal_auth;
ALTER FUNCTION app_taught_classes() OWNER TO portal_auth;
ALTER FUNCTION app_member_classes() OWNER TO portal_auth;
ALTER FUNCTION app_hosted_events() OWNER TO portal_auth;
GRANT SELECT ON live_events TO portal_auth;
CREATE POLICY live_events_auth ON live_events FOR SELECT TO portal_auth USING (true);

-- The old helpers answer through the new ones, with fixed search paths.
CREATE OR REPLACE FUNCTION teaches(p_student uuid) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT p_student = ANY (public.app_students())
$$;
CREATE OR REPLACE FUNCTION in_class(p_class uuid) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT p_class = ANY (public.app_member_classes())
$$;
-- Whether the caller hosts (or, as an admin, may run) the event. It used to resolve
-- live_events through the caller's search path, where a TEMP table could stand in for it.
CREATE OR REPLACE FUNCTION live_is_host(p_event uuid) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT (SELECT public.app_role()) = 'admin' OR p_event = ANY (public.app_hosted_events())
$$;
ALTER FUNCTION live_is_host(uuid) OWNER TO portal_auth;

-- ---------------------------------------------------------------------------------------------
-- Accounts: the app role never reads or writes a password hash.
REVOKE SELECT, UPDATE ON users FROM portal_app;
GRANT SELECT (id, username, display_name, role, locale, time_zone, show_on_leaderboard, created_at, disabled_at) ON users TO portal_app;
GRANT UPDATE (display_name, locale, time_zone, show_on_leaderboard) ON users TO portal_app;
-- Nor a session's token hash or CSRF token (an admin reads everyone's sessions).
REVOKE SELECT ON auth_sessions FROM portal_app;
GRANT SELECT (id, user_id, created_at, last_seen_at, user_agent) ON auth_sessions TO portal_app;

-- The salt, cost and digest of an encoded Argon2id hash ($argon2id$v=19$m=…,t=…,p=1$salt$hash).
CREATE FUNCTION auth_hash_parts(p_encoded text, OUT salt bytea, OUT memlimit bigint, OUT opslimit integer, OUT digest bytea)
    LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    parts text[] := string_to_array(p_encoded, '$');
    costs text[];
BEGIN
    IF p_encoded IS NULL OR cardinality(parts) <> 6 OR parts[2] <> 'argon2id' THEN
        RETURN;
    END IF;
    costs := string_to_array(parts[4], ',');
    memlimit := substr(costs[1], 3)::bigint * 1024;
    opslimit := substr(costs[2], 3)::integer;
    -- libsodium writes base64 without padding; PostgreSQL reads it with.
    salt := decode(rpad(parts[5], (length(parts[5]) + 3) / 4 * 4, '='), 'base64');
    digest := decode(rpad(parts[6], (length(parts[6]) + 3) / 4 * 4, '='), 'base64');
END
$$;

-- Failed sign-ins, counted per key: an account from addresses it has not signed in from, an
-- account from one address it has signed in from before, and a client address. Past the
-- limit a key backs off (30 s, doubling, at most 15 minutes) instead of being locked: and a
-- stranger's failures never slow the owner down at an address they have used before.
CREATE TABLE login_throttle (
    key_hash bytea PRIMARY KEY,
    failures integer NOT NULL DEFAULT 0,
    last_failure_at timestamptz,
    blocked_until timestamptz
);
CREATE INDEX login_throttle_stale ON login_throttle (last_failure_at);

-- A reserved attempt: taken (and counted) before the server spends a password hash on it,
-- consumed by auth_login_finish. Lives five minutes.
CREATE TABLE login_attempts (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    username text NOT NULL,
    account_key bytea NOT NULL,
    address_key bytea NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX login_attempts_expiry ON login_attempts (expires_at);

-- Addresses an account has signed in from (hashed), the latest 20 per account.
CREATE TABLE login_addresses (
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    address_hash bytea NOT NULL,
    last_success_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, address_hash)
);

-- Other limits (registrations, join and live codes, reports): hits per key in fixed windows.
CREATE TABLE rate_limits (
    bucket text NOT NULL,
    key_hash bytea NOT NULL,
    window_start timestamptz NOT NULL,
    hits integer NOT NULL,
    PRIMARY KEY (bucket, key_hash)
);
CREATE INDEX rate_limits_window ON rate_limits (window_start);

ALTER TABLE login_throttle ENABLE ROW LEVEL SECURITY;
ALTER TABLE login_throttle FORCE ROW LEVEL SECURITY;
ALTER TABLE login_attempts ENABLE ROW LEVEL SECURITY;
ALTER TABLE login_attempts FORCE ROW LEVEL SECURITY;
ALTER TABLE login_addresses ENABLE ROW LEVEL SECURITY;
ALTER TABLE login_addresses FORCE ROW LEVEL SECURITY;
ALTER TABLE rate_limits ENABLE ROW LEVEL SECURITY;
ALTER TABLE rate_limits FORCE ROW LEVEL SECURITY;
CREATE POLICY login_throttle_auth ON login_throttle TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY login_attempts_auth ON login_attempts TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY login_addresses_auth ON login_addresses TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY rate_limits_auth ON rate_limits TO portal_auth USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON login_throttle, login_attempts, login_addresses, rate_limits TO portal_auth;

-- Reserves one sign-in attempt for a username from a client address, before any hashing:
-- counted at once as a failure (a success gives it back), so however many arrive together,
-- no more than the limit are ever tried. Returns the attempt, and the salt and cost to hash
-- the password with: the account's, or for an unknown username a decoy derived from it (the
-- same every time, so the two cannot be told apart). When the limit is reached: only
-- retry_after, in seconds.
CREATE FUNCTION auth_login_begin(p_username text, p_address text)
    RETURNS TABLE (attempt uuid, salt bytea, memlimit bigint, opslimit integer, retry_after integer)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
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
$$;

-- Whether a proof (the raw Argon2id output of a password with a stored hash's salt and cost)
-- matches the stored hash. Hashes of both sides: equal time whatever the proof, no prefix to learn.
CREATE FUNCTION auth_proof_matches(p_encoded text, p_proof bytea) RETURNS boolean
    LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT p_proof IS NOT NULL AND p_encoded IS NOT NULL
       AND sha256(p_proof) = sha256((SELECT parts.digest FROM public.auth_hash_parts(p_encoded) AS parts))
$$;

-- A new session for the user, by its token's hash: only for the definer functions below,
-- which have proved who the user is (no one else may call it).
CREATE FUNCTION auth_open_session(p_user uuid, p_token text, p_csrf text, p_user_agent text, p_at timestamptz) RETURNS void
    LANGUAGE sql SET search_path = pg_catalog, public, pg_temp AS $$
    INSERT INTO public.auth_sessions (user_id, token_hash, csrf_token, created_at, last_seen_at, user_agent)
    VALUES (p_user, sha256(convert_to(p_token, 'UTF8')), p_csrf, p_at, p_at, left(p_user_agent, 200))
$$;

-- Consumes a reserved attempt and checks the proof: the raw Argon2id output of the password
-- with the account's salt and cost, which only someone who knows the password can compute.
-- On success the attempt stops counting as a failure, the address is remembered, and a new
-- session is made for the token's hash. Returns the user's id, or NULL for any failure.
CREATE FUNCTION auth_login_finish(p_attempt uuid, p_proof bytea, p_token text, p_csrf text, p_user_agent text, p_address text)
    RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
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
$$;

-- Registering: always a student, signed in at once with the token's session. NULL when the
-- username is taken.
CREATE FUNCTION auth_register(p_username text, p_display_name text, p_password_hash text, p_token text, p_csrf text, p_user_agent text)
    RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    created uuid;
BEGIN
    INSERT INTO public.users (username, display_name, password_hash) VALUES (p_username, p_display_name, p_password_hash)
    ON CONFLICT (lower(username)) DO NOTHING
    RETURNING id INTO created;
    IF created IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM public.auth_open_session(created, p_token, p_csrf, p_user_agent, now_at);
    RETURN created;
END
$$;

-- Changes the signed-in caller's password, given a reserved attempt (auth_login_begin with
-- their own username) and the proof of the current password. Every session of the account
-- ends (the trigger); this browser gets the new token's session. False when the proof fails.
CREATE FUNCTION auth_change_password(p_attempt uuid, p_proof bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text)
    RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
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
$$;

-- Resolves a session cookie's token to its user, ending the session when it has been idle too
-- long, is too old, or its account is disabled. Touches last_seen_at at most once a minute.
-- The server's time may run ahead of the database's (tests), never behind it.
CREATE FUNCTION auth_resolve_session(p_token text, p_now timestamptz, p_idle interval, p_absolute interval)
    RETURNS TABLE (session_id uuid, user_id uuid, role text, display_name text, csrf_token text, locale text, time_zone text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := greatest(p_now, public.app_now());
    hit record;
BEGIN
    SELECT s.id, s.user_id, s.created_at, s.last_seen_at, s.csrf_token, u.role, u.display_name, u.locale, u.time_zone, u.disabled_at
      INTO hit
      FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
     WHERE s.token_hash = sha256(convert_to(p_token, 'UTF8'));
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF hit.disabled_at IS NOT NULL OR now_at - hit.last_seen_at > p_idle OR now_at - hit.created_at > p_absolute THEN
        DELETE FROM public.auth_sessions WHERE id = hit.id;
        RETURN;
    END IF;
    IF now_at - hit.last_seen_at > interval '1 minute' THEN
        UPDATE public.auth_sessions SET last_seen_at = now_at WHERE id = hit.id;
    END IF;
    RETURN QUERY SELECT hit.id, hit.user_id, hit.role, hit.display_name, hit.csrf_token, hit.locale, hit.time_zone;
END
$$;

-- Counts one hit of `p_key` in `p_bucket` (when p_take) and says how many seconds to wait
-- before the next is allowed, 0 when it is: at most p_limit hits per p_window_seconds.
CREATE FUNCTION rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer, p_take boolean)
    RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    window_length interval := make_interval(secs => greatest(p_window_seconds, 1));
    key_value bytea := sha256(convert_to(p_key, 'UTF8'));
    hit record;
BEGIN
    IF p_take THEN
        INSERT INTO public.rate_limits AS r (bucket, key_hash, window_start, hits) VALUES (p_bucket, key_value, now_at, 1)
        ON CONFLICT (bucket, key_hash) DO UPDATE
            SET hits = CASE WHEN r.window_start <= now_at - window_length THEN 1 ELSE r.hits + 1 END,
                window_start = CASE WHEN r.window_start <= now_at - window_length THEN now_at ELSE r.window_start END
        RETURNING r.window_start, r.hits INTO hit;
        -- The hit that went over the limit does not go through either.
        IF hit.hits > p_limit THEN
            RETURN greatest(1, ceil(extract(epoch FROM hit.window_start + window_length - now_at)))::integer;
        END IF;
        DELETE FROM public.rate_limits WHERE (bucket, key_hash) IN (
            SELECT r.bucket, r.key_hash FROM public.rate_limits r WHERE r.window_start < now_at - interval '1 day' LIMIT 10);
        RETURN 0;
    END IF;
    SELECT r.window_start, r.hits INTO hit FROM public.rate_limits r WHERE r.bucket = p_bucket AND r.key_hash = key_value;
    IF FOUND AND hit.window_start > now_at - window_length AND hit.hits >= p_limit THEN
        RETURN greatest(1, ceil(extract(epoch FROM hit.window_start + window_length - now_at)))::integer;
    END IF;
    RETURN 0;
END
$$;

-- Guests keep what they practised when they sign in: the caller proves the guest key by
-- handing over the guest cookie's token itself.
CREATE FUNCTION claim_guest_sessions(p_guest_token text) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    owner uuid := public.app_user_id();
    key bytea := sha256(convert_to(p_guest_token, 'UTF8'));
    claimed integer;
BEGIN
    IF owner IS NULL OR p_guest_token IS NULL OR length(p_guest_token) < 32 THEN
        RETURN 0;
    END IF;
    UPDATE public.answers a SET user_id = owner, rating = CASE WHEN a.correct THEN 3 ELSE 1 END
    FROM public.study_sessions s
    WHERE s.id = a.session_id AND s.guest_key = key AND s.user_id IS NULL AND a.user_id IS NULL;
    UPDATE public.study_sessions SET user_id = owner, guest_key = NULL WHERE guest_key = key AND user_id IS NULL;
    GET DIAGNOSTICS claimed = ROW_COUNT;
    RETURN claimed;
END
$$;

-- The old entry points took a user id (or a token hash) from the caller: gone.
DROP FUNCTION auth_register(text, text, text);
DROP FUNCTION auth_find_login(text);
DROP FUNCTION auth_create_session(uuid, bytea, text, timestamptz, text);
DROP FUNCTION auth_lookup_session(bytea, timestamptz, interval, interval);
DROP FUNCTION claim_guest_sessions(bytea);

-- portal create-admin (the owner only), with a qualified body.
CREATE OR REPLACE FUNCTION auth_create_user(p_username text, p_display_name text, p_password_hash text, p_role text) RETURNS uuid
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    INSERT INTO public.users (username, display_name, password_hash, role) VALUES (p_username, p_display_name, p_password_hash, p_role)
    ON CONFLICT (lower(username)) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role, disabled_at = NULL
    RETURNING id
$$;
CREATE OR REPLACE FUNCTION users_end_sessions() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    DELETE FROM public.auth_sessions WHERE user_id = NEW.id;
    RETURN NEW;
END
$$;

ALTER FUNCTION auth_proof_matches(text, bytea) OWNER TO portal_auth;
ALTER FUNCTION auth_open_session(uuid, text, text, text, timestamptz) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_proof_matches(text, bytea), auth_open_session(uuid, text, text, text, timestamptz) FROM PUBLIC;
ALTER FUNCTION auth_login_begin(text, text) OWNER TO portal_auth;
ALTER FUNCTION auth_login_finish(uuid, bytea, text, text, text, text) OWNER TO portal_auth;
ALTER FUNCTION auth_register(text, text, text, text, text, text) OWNER TO portal_auth;
ALTER FUNCTION auth_change_password(uuid, bytea, text, text, text, text) OWNER TO portal_auth;
ALTER FUNCTION auth_resolve_session(text, timestamptz, interval, interval) OWNER TO portal_auth;
ALTER FUNCTION rate_limit(text, text, integer, integer, boolean) OWNER TO portal_auth;
ALTER FUNCTION claim_guest_sessions(text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_login_begin(text, text), auth_login_finish(uuid, bytea, text, text, text, text),
    auth_register(text, text, text, text, text, text), auth_change_password(uuid, bytea, text, text, text, text),
    auth_resolve_session(text, timestamptz, interval, interval), rate_limit(text, text, integer, integer, boolean),
    claim_guest_sessions(text), app_form_key() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_login_begin(text, text), auth_login_finish(uuid, bytea, text, text, text, text),
    auth_register(text, text, text, text, text, text), auth_change_password(uuid, bytea, text, text, text, text),
    auth_resolve_session(text, timestamptz, interval, interval), rate_limit(text, text, integer, integer, boolean),
    claim_guest_sessions(text), app_form_key() TO portal_app;

-- ---------------------------------------------------------------------------------------------
-- Exam-only questions: an admin keeps some questions for mock exams (and live events). They
-- never reach a bundle, a change feed or practice feedback.
ALTER TABLE questions ADD COLUMN exam_only boolean NOT NULL DEFAULT false;

CREATE OR REPLACE FUNCTION questions_bump_version() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF (NEW.type, NEW.stem, NEW.code, NEW.code_language, NEW.options, NEW.correct, NEW.explanation,
        NEW.difficulty, NEW.status, NEW.deleted_at, NEW.domain_id, NEW.exam_only)
       IS DISTINCT FROM
       (OLD.type, OLD.stem, OLD.code, OLD.code_language, OLD.options, OLD.correct, OLD.explanation,
        OLD.difficulty, OLD.status, OLD.deleted_at, OLD.domain_id, OLD.exam_only) THEN
        NEW.version := OLD.version + 1;
        NEW.updated_at := now();
    END IF;
    RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION questions_keep_version() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version THEN
        INSERT INTO public.question_versions (question_id, version, snapshot)
        VALUES (NEW.id, NEW.version, jsonb_build_object(
            'type', NEW.type, 'stem', NEW.stem, 'code', NEW.code, 'codeLanguage', NEW.code_language, 'options', NEW.options,
            'correct', NEW.correct, 'explanation', NEW.explanation, 'difficulty', NEW.difficulty, 'status', NEW.status,
            'deletedAt', NEW.deleted_at, 'examOnly', NEW.exam_only))
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;

-- The change feed: an exam-only question is gone from a device's point of view.
CREATE OR REPLACE FUNCTION exam_changes(p_exam bigint, p_since timestamptz)
    RETURNS TABLE (id uuid, removed boolean)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT q.id, (q.deleted_at IS NOT NULL OR q.status <> 'published' OR q.exam_only)
    FROM public.questions q JOIN public.domains d ON d.id = q.domain_id
    -- Five minutes of overlap: an edit in a transaction that began before the version was taken
    -- still reaches the client (sending an unchanged question again is harmless).
    WHERE d.exam_id = p_exam AND q.updated_at > p_since - interval '5 minutes'
$$;

-- Earlier versions' option ids, for versions students could have practised on.
CREATE OR REPLACE FUNCTION published_option_ids(p_questions uuid[], p_versions integer[])
    RETURNS TABLE (question_id uuid, version integer, option_ids text[])
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT v.question_id, v.version,
           ARRAY(SELECT o.value->>'id' FROM jsonb_array_elements(v.snapshot->'options') WITH ORDINALITY AS o(value, n) ORDER BY o.n)
    FROM unnest(p_questions, p_versions) AS w(question_id, version)
    JOIN public.question_versions v ON v.question_id = w.question_id AND v.version = w.version
    WHERE v.snapshot->>'status' = 'published' AND v.snapshot->>'deletedAt' IS NULL
$$;

-- Images only from this site or over HTTPS: never javascript:, data: or plain http.
CREATE OR REPLACE FUNCTION question_shape_problem(kind text, options jsonb, correct jsonb) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    option_count integer;
    option jsonb;
    position integer := 0;
    ids text[] := '{}';
    answer jsonb;
    answers integer[] := '{}';
    number_value numeric;
    value integer;
BEGIN
    IF kind NOT IN ('single-choice', 'multi-choice', 'ordering', 'code-snippet') THEN
        RETURN format('unknown question type %s', kind);
    END IF;
    IF options IS NULL OR jsonb_typeof(options) <> 'array' THEN
        RETURN 'options must be an array';
    END IF;
    option_count := jsonb_array_length(options);
    IF option_count < 2 OR option_count > 10 THEN
        RETURN 'a question needs 2 to 10 options';
    END IF;
    FOR option IN SELECT * FROM jsonb_array_elements(options) LOOP
        IF jsonb_typeof(option) <> 'object' THEN
            RETURN format('option %s is not an object', position);
        END IF;
        IF EXISTS (SELECT 1 FROM jsonb_object_keys(option) AS key
                   WHERE key NOT IN ('id', 'text', 'imageUrl', 'code', 'explanation')) THEN
            RETURN format('option %s has a key other than id, text, imageUrl, code, explanation', position);
        END IF;
        IF jsonb_typeof(option -> 'id') IS DISTINCT FROM 'string' OR length(option ->> 'id') = 0 THEN
            RETURN format('option %s has no id', position);
        END IF;
        IF jsonb_typeof(option -> 'text') IS DISTINCT FROM 'string' OR length(btrim(option ->> 'text', E' \t\n\r')) = 0 THEN
            RETURN format('option %s has no text', position);
        END IF;
        IF (option ? 'imageUrl' AND jsonb_typeof(option -> 'imageUrl') <> 'string')
           OR (option ? 'code' AND jsonb_typeof(option -> 'code') <> 'string')
           OR (option ? 'explanation' AND jsonb_typeof(option -> 'explanation') <> 'string') THEN
            RETURN format('option %s has a non-text imageUrl, code or explanation', position);
        END IF;
        IF option ? 'imageUrl' AND NOT (
            (option ->> 'imageUrl') ~ '^https://[^\s/?#]+[^\s]*$'
            OR ((option ->> 'imageUrl') ~ '^/[^/\\\s]' AND (option ->> 'imageUrl') !~ '[\s\\]')) THEN
            RETURN format('option %s has an image address that is neither a path on this site nor https', position);
        END IF;
        IF (option ->> 'id') = ANY (ids) THEN
            RETURN format('option %s repeats the id %s', position, option ->> 'id');
        END IF;
        ids := ids || (option ->> 'id');
        position := position + 1;
    END LOOP;

    IF correct IS NULL OR jsonb_typeof(correct) <> 'array' OR jsonb_array_length(correct) = 0 THEN
        RETURN 'the answer key must be a non-empty array of option indexes';
    END IF;
    FOR answer IN SELECT * FROM jsonb_array_elements(correct) LOOP
        IF jsonb_typeof(answer) <> 'number' THEN
            RETURN 'the answer key holds something other than option indexes';
        END IF;
        number_value := (answer #>> '{}')::numeric;
        IF number_value < 0 OR number_value > 1000 OR number_value <> trunc(number_value) THEN
            RETURN 'the answer key holds something other than option indexes';
        END IF;
        value := number_value::integer;
        IF value >= option_count THEN
            RETURN format('the answer key points at option %s, which does not exist', value);
        END IF;
        IF value = ANY (answers) THEN
            RETURN format('the answer key names option %s twice', value);
        END IF;
        answers := answers || value;
    END LOOP;

    IF kind IN ('single-choice', 'code-snippet') AND cardinality(answers) <> 1 THEN
        RETURN format('a %s question has exactly one correct option', kind);
    END IF;
    IF kind = 'ordering' AND cardinality(answers) <> option_count THEN
        RETURN 'an ordering key must list every option exactly once';
    END IF;
    RETURN NULL;
END
$$;

-- ---------------------------------------------------------------------------------------------
-- Checking an answer, the same rules as QuestionEngine's AnswerChecker (the shared fixture
-- Tests/Fixtures/answer-checking.json holds both to the same cases). A response that is not
-- an answer at all raises 22023 with the reason in brackets: (empty), (outOfRange),
-- (duplicate), (wrongCount).
CREATE FUNCTION answer_outcome(p_kind text, p_key jsonb, p_option_count integer, p_response jsonb,
                               OUT correct boolean, OUT score double precision)
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    picks integer[] := '{}';
    answer_key integer[];
    item jsonb;
    number_value numeric;
    right_picks integer;
    wrong_picks integer;
    longest integer := 0;
    positions integer[];
    best integer[];
    i integer;
    j integer;
BEGIN
    IF p_response IS NULL OR jsonb_typeof(p_response) <> 'array' THEN
        RAISE EXCEPTION 'the response is not an answer to this question (not a list)' USING ERRCODE = '22023';
    END IF;
    IF jsonb_array_length(p_response) = 0 THEN
        RAISE EXCEPTION 'the response is not an answer to this question (empty)' USING ERRCODE = '22023';
    END IF;
    FOR item IN SELECT * FROM jsonb_array_elements(p_response) LOOP
        IF jsonb_typeof(item) <> 'number' THEN
            RAISE EXCEPTION 'the response is not an answer to this question (not a list)' USING ERRCODE = '22023';
        END IF;
        number_value := (item #>> '{}')::numeric;
        IF number_value <> trunc(number_value) OR number_value < 0 OR number_value >= p_option_count THEN
            RAISE EXCEPTION 'the response is not an answer to this question (outOfRange)' USING ERRCODE = '22023';
        END IF;
        IF number_value::integer = ANY (picks) THEN
            RAISE EXCEPTION 'the response is not an answer to this question (duplicate)' USING ERRCODE = '22023';
        END IF;
        picks := picks || number_value::integer;
    END LOOP;
    SELECT array_agg(k::integer ORDER BY n) INTO answer_key FROM jsonb_array_elements_text(p_key) WITH ORDINALITY AS x(k, n);
    IF p_kind IN ('single-choice', 'code-snippet') THEN
        IF cardinality(picks) <> 1 THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongCount)' USING ERRCODE = '22023';
        END IF;
        correct := picks[1] = answer_key[1];
        score := CASE WHEN correct THEN 1 ELSE 0 END;
    ELSIF p_kind = 'multi-choice' THEN
        SELECT count(*) FILTER (WHERE p = ANY (answer_key)) INTO right_picks FROM unnest(picks) AS p;
        wrong_picks := cardinality(picks) - right_picks;
        correct := right_picks = (SELECT count(DISTINCT k) FROM unnest(answer_key) AS k) AND wrong_picks = 0;
        score := greatest(0, right_picks - wrong_picks)::double precision / (SELECT count(DISTINCT k) FROM unnest(answer_key) AS k);
    ELSIF p_kind = 'ordering' THEN
        IF cardinality(picks) <> p_option_count THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongCount)' USING ERRCODE = '22023';
        END IF;
        correct := picks = answer_key;
        -- The longest run of picks in the key's relative order (n ≤ 10: the quadratic way).
        positions := ARRAY(SELECT array_position(answer_key, p) FROM unnest(picks) WITH ORDINALITY AS x(p, n) ORDER BY n);
        best := array_fill(1, ARRAY[cardinality(positions)]);
        FOR i IN 1 .. cardinality(positions) LOOP
            FOR j IN 1 .. i - 1 LOOP
                IF positions[j] < positions[i] AND best[j] + 1 > best[i] THEN
                    best[i] := best[j] + 1;
                END IF;
            END LOOP;
            longest := greatest(longest, best[i]);
        END LOOP;
        score := longest::double precision / cardinality(answer_key);
    ELSE
        RAISE EXCEPTION 'unknown question type %', p_kind USING ERRCODE = '22023';
    END IF;
END
$$;
GRANT EXECUTE ON FUNCTION answer_outcome(text, jsonb, integer, jsonb) TO portal_app;

-- ---------------------------------------------------------------------------------------------
-- Study sessions: begun only as the database allows, finished and scored only here.
REVOKE UPDATE ON study_sessions FROM portal_app;
GRANT UPDATE (flagged) ON study_sessions TO portal_app;

-- Whether a share link may start a session of this exam and mode now.
CREATE FUNCTION share_link_admits(p_link uuid, p_exam bigint, p_mode text) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM public.share_links l
                   WHERE l.id = p_link AND l.exam_id = p_exam AND l.mode = p_mode AND l.revoked_at IS NULL
                     AND (l.expires_at IS NULL OR l.expires_at > public.app_now()))
$$;
ALTER FUNCTION share_link_admits(uuid, bigint, text) OWNER TO portal_auth;

-- A new session: unfinished and unscored, its questions published questions of its exam (an
-- exam-only one only in a mock exam), a mock exam's deadline its time limit from a start that
-- is now, and a share link that is live and offers this exam and mode.
CREATE FUNCTION study_sessions_admit() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    limit_seconds integer;
    usable integer;
BEGIN
    IF NEW.finished_at IS NOT NULL OR NEW.score_correct IS NOT NULL OR NEW.score_percent IS NOT NULL OR NEW.passed IS NOT NULL THEN
        RAISE EXCEPTION 'a study session begins unfinished and unscored' USING ERRCODE = 'check_violation';
    END IF;
    NEW.flagged := '{}';
    SELECT e.time_limit_s INTO limit_seconds FROM public.exams e WHERE e.id = NEW.exam_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no such exam' USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF NEW.started_at > now_at + interval '5 minutes' THEN
        RAISE EXCEPTION 'a study session cannot begin in the future' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.mode = 'mock' THEN
        IF NEW.started_at < now_at - interval '5 minutes' THEN
            RAISE EXCEPTION 'a mock exam begins now' USING ERRCODE = 'check_violation';
        END IF;
        NEW.deadline_at := NEW.started_at + make_interval(secs => limit_seconds);
    ELSE
        NEW.deadline_at := NULL;
    END IF;
    SELECT count(DISTINCT q.id) INTO usable
    FROM unnest(NEW.question_ids) AS item(id)
    JOIN public.questions q ON q.id = item.id AND q.status = 'published' AND q.deleted_at IS NULL AND (NEW.mode = 'mock' OR NOT q.exam_only)
    JOIN public.domains d ON d.id = q.domain_id AND d.exam_id = NEW.exam_id;
    IF usable <> cardinality(NEW.question_ids) THEN
        RAISE EXCEPTION 'a study session holds only published questions of its exam, each once' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.share_link_id IS NOT NULL AND NOT public.share_link_admits(NEW.share_link_id, NEW.exam_id, NEW.mode) THEN
        RAISE EXCEPTION 'the share link does not offer this session' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER study_sessions_admit BEFORE INSERT ON study_sessions FOR EACH ROW EXECUTE FUNCTION study_sessions_admit();

ALTER FUNCTION study_sessions_frozen() SET search_path = pg_catalog, public, pg_temp;

-- An answer: only to a question of its session, while the session is open (a mock exam: until
-- its deadline), once per question outside mock exams; correctness and partial credit are
-- computed here from the current key (an answer to an earlier version is mapped onto the
-- current options by option id first), the rating follows from correctness, and the time it
-- arrived is the database's. A device's own time is kept, clamped to the session's window.
CREATE FUNCTION answers_admit() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    sess record;
    question record;
    response jsonb := NEW.response;
    earlier text[];
    current_ids text[];
    outcome record;
BEGIN
    -- The same id again: ON CONFLICT decides (a replay changes nothing).
    IF EXISTS (SELECT 1 FROM public.answers a WHERE a.id = NEW.id) THEN
        RETURN NEW;
    END IF;
    SELECT s.id, s.user_id, s.mode, s.question_ids, s.started_at, s.deadline_at, s.finished_at INTO sess
    FROM public.study_sessions s WHERE s.id = NEW.session_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no such study session' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF sess.finished_at IS NOT NULL THEN
        RAISE EXCEPTION 'study sess % has ended', sess.id USING ERRCODE = 'check_violation';
    END IF;
    IF sess.deadline_at IS NOT NULL AND now_at > sess.deadline_at THEN
        RAISE EXCEPTION 'the time for this mock exam is over' USING ERRCODE = 'check_violation';
    END IF;
    IF NOT (NEW.question_id = ANY (sess.question_ids)) THEN
        RAISE EXCEPTION 'the question is not part of the session' USING ERRCODE = 'check_violation';
    END IF;
    IF sess.mode <> 'mock' AND EXISTS (SELECT 1 FROM public.answers a WHERE a.session_id = NEW.session_id AND a.question_id = NEW.question_id) THEN
        RAISE EXCEPTION 'the question was answered already in this session' USING ERRCODE = 'check_violation';
    END IF;
    SELECT q.type, q.options, q.correct, q.version INTO question FROM public.questions q WHERE q.id = NEW.question_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the question is no longer published' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.question_version > question.version OR NEW.question_version < 1 THEN
        RAISE EXCEPTION 'version % of this question does not exist', NEW.question_version USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.question_version < question.version THEN
        SELECT p.option_ids INTO earlier FROM public.published_option_ids(ARRAY[NEW.question_id], ARRAY[NEW.question_version]) AS p;
        IF earlier IS NULL THEN
            RAISE EXCEPTION 'version % of this question was never published', NEW.question_version USING ERRCODE = 'check_violation';
        END IF;
        current_ids := ARRAY(SELECT o.value->>'id' FROM jsonb_array_elements(question.options) WITH ORDINALITY AS o(value, n) ORDER BY o.n);
        IF jsonb_typeof(NEW.response) <> 'array' OR EXISTS (
            SELECT 1 FROM jsonb_array_elements(NEW.response) AS r(v)
            WHERE jsonb_typeof(r.v) <> 'number' OR (r.v #>> '{}')::numeric <> trunc((r.v #>> '{}')::numeric)
               OR (r.v #>> '{}')::numeric < 0 OR (r.v #>> '{}')::numeric >= cardinality(earlier)
               OR array_position(current_ids, earlier[(r.v #>> '{}')::integer + 1]) IS NULL) THEN
            RAISE EXCEPTION 'the question has changed since it was answered: a chosen option is gone' USING ERRCODE = 'check_violation';
        END IF;
        SELECT jsonb_agg(array_position(current_ids, earlier[(r.v #>> '{}')::integer + 1]) - 1 ORDER BY r.n) INTO response
        FROM jsonb_array_elements(NEW.response) WITH ORDINALITY AS r(v, n);
    END IF;
    SELECT * INTO outcome FROM public.answer_outcome(question.type, question.correct, jsonb_array_length(question.options), response);
    NEW.correct := outcome.correct;
    NEW.score := outcome.score;
    IF NEW.user_id IS NULL THEN
        NEW.rating := NULL;
    ELSIF NOT NEW.correct THEN
        NEW.rating := 1;
    ELSIF NEW.rating IS NULL OR NEW.rating = 1 THEN
        NEW.rating := 3;
    END IF;
    NEW.received_at := now_at;
    NEW.answered_at := least(greatest(NEW.answered_at, sess.started_at), now_at);
    RETURN NEW;
END
$$;
CREATE TRIGGER answers_admit BEFORE INSERT ON answers FOR EACH ROW EXECUTE FUNCTION answers_admit();

-- The answer that counts for each question of a session: in a mock exam the latest that
-- arrived (answers may change until the deadline, and none is admitted after it); elsewhere
-- the first (one answer per question per session). Arrival is the database's clock; the
-- device's time only breaks ties within one upload.
CREATE VIEW counted_answers WITH (security_invoker = true) AS
    SELECT DISTINCT ON (a.session_id, a.question_id) a.*
    FROM public.answers a JOIN public.study_sessions s ON s.id = a.session_id
    ORDER BY a.session_id, a.question_id,
             CASE WHEN s.mode = 'mock' THEN a.received_at END DESC,
             CASE WHEN s.mode = 'mock' THEN a.answered_at END DESC,
             CASE WHEN s.mode <> 'mock' THEN a.received_at END,
             CASE WHEN s.mode <> 'mock' THEN a.answered_at END,
             a.id;
GRANT SELECT ON counted_answers TO portal_app;

-- Ends the caller's session (their own, or their guest cookie's) at p_at (not before its
-- start, not after now, not after a mock exam's deadline) and stores its score, computed here
-- from the answers that count: right answers as a share of all its questions, unanswered ones
-- counting as wrong; passed at the exam's pass mark. False when it had already ended.
CREATE FUNCTION finish_study_session(p_session uuid, p_at timestamptz) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    guest bytea := public.app_guest_key();
    sess record;
    ended timestamptz;
    total integer;
    right_answers integer;
BEGIN
    SELECT s.id, s.question_ids, s.started_at, s.deadline_at, s.mode, e.pass_mark INTO sess
    FROM public.study_sessions s JOIN public.exams e ON e.id = s.exam_id
    WHERE s.id = p_session AND s.finished_at IS NULL
      AND ((s.user_id IS NOT NULL AND s.user_id = me) OR (s.user_id IS NULL AND me IS NULL AND s.guest_key = guest))
    FOR UPDATE OF s;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    ended := least(greatest(COALESCE(p_at, now_at), sess.started_at), greatest(now_at, sess.started_at));
    IF sess.deadline_at IS NOT NULL THEN
        ended := least(ended, sess.deadline_at);
    END IF;
    total := cardinality(sess.question_ids);
    SELECT count(*) FILTER (WHERE c.correct) INTO right_answers
    FROM (SELECT DISTINCT ON (a.question_id) a.correct
          FROM public.answers a
          WHERE a.session_id = p_session AND a.question_id = ANY (sess.question_ids)
          ORDER BY a.question_id,
                   CASE WHEN sess.mode = 'mock' THEN a.received_at END DESC,
                   CASE WHEN sess.mode = 'mock' THEN a.answered_at END DESC,
                   CASE WHEN sess.mode <> 'mock' THEN a.received_at END,
                   CASE WHEN sess.mode <> 'mock' THEN a.answered_at END,
                   a.id) AS c;
    UPDATE public.study_sessions
    SET finished_at = ended, score_correct = right_answers,
        score_percent = round(right_answers * 100.0 / total, 2),
        passed = total > 0 AND right_answers * 100 >= sess.pass_mark * total
    WHERE id = p_session;
    RETURN true;
END
$$;
ALTER FUNCTION finish_study_session(uuid, timestamptz) OWNER TO portal_auth;
GRANT SELECT ON study_sessions, answers TO portal_auth;
GRANT UPDATE (finished_at, score_correct, score_percent, passed) ON study_sessions TO portal_auth;
GRANT SELECT ON exams TO portal_auth;
CREATE POLICY study_sessions_finish ON study_sessions FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY study_sessions_auth_read ON study_sessions FOR SELECT TO portal_auth USING (true);
CREATE POLICY answers_auth_read ON answers FOR SELECT TO portal_auth USING (true);
-- portal rebuild-cards runs as the owner, a member of portal_auth: it rewrites every
-- student's derived cards.
GRANT SELECT, INSERT, UPDATE ON review_cards TO portal_auth;
CREATE POLICY review_cards_auth ON review_cards TO portal_auth USING (true) WITH CHECK (true);
REVOKE ALL ON FUNCTION finish_study_session(uuid, timestamptz), share_link_admits(uuid, bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION finish_study_session(uuid, timestamptz), share_link_admits(uuid, bigint, text) TO portal_app;

-- ---------------------------------------------------------------------------------------------
-- Class membership: a student joins (with the class's code, or a link that joins) and leaves;
-- a teacher removes. Nobody brings back a student who left.
REVOKE INSERT, UPDATE ON class_members FROM portal_app;
GRANT UPDATE (left_at) ON class_members TO portal_app;

-- Joins the caller to the class with this code (again, if they had left); the class's id, or
-- NULL for an unknown code.
CREATE FUNCTION join_class(p_code text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    me uuid := public.app_user_id();
    joined_class uuid;
BEGIN
    IF me IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT c.id INTO joined_class FROM public.classes c WHERE c.join_code = upper(btrim(p_code));
    IF joined_class IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO public.class_members AS m (class_id, user_id, joined_at) VALUES (joined_class, me, public.app_now())
    ON CONFLICT (class_id, user_id) DO UPDATE SET left_at = NULL, joined_at = EXCLUDED.joined_at WHERE m.left_at IS NOT NULL;
    RETURN joined_class;
END
$$;

-- Joins the caller to the class of a live share link that joins its class.
CREATE FUNCTION join_class_by_link(p_link uuid) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    me uuid := public.app_user_id();
    joined_class uuid;
BEGIN
    SELECT l.class_id INTO joined_class FROM public.share_links l
    WHERE l.id = p_link AND l.joins_class AND l.revoked_at IS NULL AND (l.expires_at IS NULL OR l.expires_at > public.app_now());
    IF me IS NULL OR joined_class IS NULL THEN
        RETURN false;
    END IF;
    INSERT INTO public.class_members AS m (class_id, user_id, joined_at) VALUES (joined_class, me, public.app_now())
    ON CONFLICT (class_id, user_id) DO UPDATE SET left_at = NULL, joined_at = EXCLUDED.joined_at WHERE m.left_at IS NOT NULL;
    RETURN true;
END
$$;
ALTER FUNCTION join_class(text) OWNER TO portal_auth;
ALTER FUNCTION join_class_by_link(uuid) OWNER TO portal_auth;
GRANT SELECT, INSERT, UPDATE (left_at, joined_at) ON class_members TO portal_auth;
CREATE POLICY class_members_auth_join ON class_members FOR INSERT TO portal_auth WITH CHECK (true);
CREATE POLICY class_members_auth_rejoin ON class_members FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);
REVOKE ALL ON FUNCTION join_class(text), join_class_by_link(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION join_class(text), join_class_by_link(uuid) TO portal_app;

-- The lookups by code and token, with qualified names.
CREATE OR REPLACE FUNCTION class_by_code(p_code text)
    RETURNS TABLE (id uuid, name text, teacher_name text, school_name text)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT c.id, c.name, u.display_name, s.name
    FROM public.classes c JOIN public.users u ON u.id = c.teacher_id LEFT JOIN public.schools s ON s.id = c.school_id
    WHERE c.join_code = upper(btrim(p_code))
$$;
CREATE OR REPLACE FUNCTION share_link_by_token(p_hash bytea, p_now timestamptz)
    RETURNS TABLE (id uuid, title text, exam_id bigint, region_code text, exam_slug text, exam_title text, exam_language text,
                   class_id uuid, class_name text, shared_by text, mode text, domains text[], difficulty_from integer,
                   difficulty_to integer, question_count integer, joins_class boolean, due_at timestamptz, expires_at timestamptz)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT l.id, l.title, l.exam_id, r.code, e.slug, e.title, e.language, l.class_id, c.name, u.display_name, l.mode, l.domains,
           l.difficulty_from, l.difficulty_to, l.question_count, l.joins_class, l.due_at, l.expires_at
    FROM public.share_links l
    JOIN public.exams e ON e.id = l.exam_id JOIN public.regions r ON r.id = e.region_id
    JOIN public.users u ON u.id = l.created_by
    LEFT JOIN public.classes c ON c.id = l.class_id
    WHERE l.token_hash = p_hash AND l.revoked_at IS NULL AND (l.expires_at IS NULL OR l.expires_at > greatest(p_now, public.app_now()))
$$;

-- ---------------------------------------------------------------------------------------------
-- Live events: answers checked and scored here, on the database's clock; results computed
-- here from the stored answers, once, by whoever asks first after the end.
REVOKE INSERT ON event_results FROM portal_app;

-- An answer to the open question of its event: correctness from the key, the time from the
-- question's opening to now, and the points for both (LiveScoring: 1,000 at once, 500 at the
-- bell, 0 when wrong).
CREATE FUNCTION live_answers_admit() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    ev record;
    question record;
    opened timestamptz;
    outcome record;
    limit_ms integer;
BEGIN
    SELECT e.question_ids, e.seconds_per_question, e.pause_seconds, e.starts_at, e.ended_at INTO ev
    FROM public.live_events e WHERE e.id = NEW.event_id;
    IF NOT FOUND OR ev.starts_at IS NULL OR ev.ended_at IS NOT NULL
       OR NEW.question_index >= cardinality(ev.question_ids) OR ev.question_ids[NEW.question_index + 1] <> NEW.question_id THEN
        RAISE EXCEPTION 'that question is not open' USING ERRCODE = 'check_violation';
    END IF;
    opened := ev.starts_at + make_interval(secs => NEW.question_index * (ev.seconds_per_question + ev.pause_seconds));
    -- A second of grace for the trip from the server's clock to here.
    IF now_at < opened OR now_at > opened + make_interval(secs => ev.seconds_per_question + 1) THEN
        RAISE EXCEPTION 'that question is not open' USING ERRCODE = 'check_violation';
    END IF;
    SELECT q.type, q.options, q.correct, q.version INTO question FROM public.questions q WHERE q.id = NEW.question_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the question is no longer published' USING ERRCODE = 'check_violation';
    END IF;
    SELECT * INTO outcome FROM public.answer_outcome(question.type, question.correct, jsonb_array_length(question.options), NEW.response);
    NEW.correct := outcome.correct;
    NEW.question_version := question.version;
    NEW.time_ms := least(greatest(0, floor(extract(epoch FROM now_at - opened) * 1000)), ev.seconds_per_question * 1000)::integer;
    -- 1000 × (1 − (t/L)/2) in whole numbers, halves up: LiveScoring.points to the point.
    limit_ms := ev.seconds_per_question * 1000;
    NEW.base_points := CASE WHEN NEW.correct THEN (2000 * limit_ms - 1000 * NEW.time_ms + limit_ms) / (2 * limit_ms) ELSE 0 END;
    NEW.answered_at := now_at;
    RETURN NEW;
END
$$;
CREATE TRIGGER live_answers_admit BEFORE INSERT ON live_answers FOR EACH ROW EXECUTE FUNCTION live_answers_admit();

-- An event's board from its stored answers: every participant with the points their right
-- answers earn plus the run bonus (50 for each right answer in a row after the first, at most
-- 250; a wrong or missing answer ends the run), and where their run stands (its length and the
-- last question answered right), so a live scoreboard lost with Redis can be rebuilt exactly.
-- Public like the board itself: nicknames and points.
CREATE FUNCTION live_board(p_event uuid)
    RETURNS TABLE (participant_id uuid, nickname text, points integer, correct integer, streak integer, last_right integer)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    WITH rights AS (
        -- Right answers at consecutive questions share an island: index minus position.
        SELECT a.participant_id, a.question_index, a.base_points,
               a.question_index - row_number() OVER (PARTITION BY a.participant_id ORDER BY a.question_index) AS island
        FROM public.live_answers a WHERE a.event_id = p_event AND a.correct
    ), runs AS (
        SELECT r.participant_id, r.question_index, r.base_points,
               row_number() OVER (PARTITION BY r.participant_id, r.island ORDER BY r.question_index) AS run
        FROM rights r
    ), totals AS (
        SELECT r.participant_id, sum(r.base_points + least(250, 50 * (r.run - 1)))::integer AS points, count(*)::integer AS correct,
               (array_agg(r.run ORDER BY r.question_index DESC))[1]::integer AS streak, max(r.question_index)::integer AS last_right
        FROM runs r GROUP BY r.participant_id
    )
    SELECT p.id, p.nickname, COALESCE(t.points, 0), COALESCE(t.correct, 0), COALESCE(t.streak, 0), t.last_right
    FROM public.live_participants p LEFT JOIN totals t ON t.participant_id = p.id
    WHERE p.event_id = p_event
$$;

-- Writes an event's results once its last answer has been shown: every participant ranked by
-- the board's points, equal points sharing a rank. True when this call wrote them.
CREATE FUNCTION live_record_results(p_event uuid) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    ev record;
BEGIN
    SELECT e.id, e.question_ids, e.seconds_per_question, e.pause_seconds, e.starts_at INTO ev
    FROM public.live_events e WHERE e.id = p_event AND e.ended_at IS NULL AND e.starts_at IS NOT NULL FOR UPDATE;
    IF NOT FOUND OR public.app_now() < ev.starts_at
       + make_interval(secs => cardinality(ev.question_ids) * (ev.seconds_per_question + ev.pause_seconds)) THEN
        RETURN false;
    END IF;
    UPDATE public.live_events SET ended_at = ev.starts_at
        + make_interval(secs => cardinality(ev.question_ids) * (ev.seconds_per_question + ev.pause_seconds))
    WHERE id = p_event;
    INSERT INTO public.event_results (event_id, participant_id, nickname, rank, points, correct)
    SELECT p_event, b.participant_id, b.nickname, rank() OVER (ORDER BY b.points DESC), b.points, b.correct
    FROM public.live_board(p_event) AS b;
    RETURN true;
END
$$;
ALTER FUNCTION live_board(uuid) OWNER TO portal_auth;
ALTER FUNCTION live_record_results(uuid) OWNER TO portal_auth;
GRANT SELECT, UPDATE (ended_at) ON live_events TO portal_auth;
GRANT SELECT ON live_answers, live_participants TO portal_auth;
GRANT INSERT ON event_results TO portal_auth;
CREATE POLICY live_events_auth_end ON live_events FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY live_answers_auth ON live_answers FOR SELECT TO portal_auth USING (true);
CREATE POLICY live_participants_auth ON live_participants FOR SELECT TO portal_auth USING (true);
CREATE POLICY event_results_auth ON event_results FOR INSERT TO portal_auth WITH CHECK (true);
REVOKE ALL ON FUNCTION live_record_results(uuid), live_board(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION live_record_results(uuid), live_board(uuid) TO portal_app;
-- The host ends an event only by its schedule (live_record_results), never by hand.
REVOKE UPDATE ON live_events FROM portal_app;
GRANT UPDATE (starts_at) ON live_events TO portal_app;

-- ---------------------------------------------------------------------------------------------
-- Every policy again, asking who the caller is once per statement (an InitPlan), never per row.
DROP POLICY questions_read ON questions;
DROP POLICY regions_admin ON regions;
DROP POLICY exams_admin ON exams;
DROP POLICY domains_admin ON domains;
DROP POLICY questions_admin ON questions;
CREATE POLICY questions_read ON questions FOR SELECT
    USING ((status = 'published' AND deleted_at IS NULL) OR (SELECT app_role()) = 'admin');
CREATE POLICY regions_admin ON regions FOR ALL USING ((SELECT app_role()) = 'admin') WITH CHECK ((SELECT app_role()) = 'admin');
CREATE POLICY exams_admin ON exams FOR ALL USING ((SELECT app_role()) = 'admin') WITH CHECK ((SELECT app_role()) = 'admin');
CREATE POLICY domains_admin ON domains FOR ALL USING ((SELECT app_role()) = 'admin') WITH CHECK ((SELECT app_role()) = 'admin');
CREATE POLICY questions_admin ON questions FOR ALL USING ((SELECT app_role()) = 'admin') WITH CHECK ((SELECT app_role()) = 'admin');

DROP POLICY users_self ON users;
DROP POLICY users_self_update ON users;
DROP POLICY users_teacher ON users;
CREATE POLICY users_self ON users FOR SELECT TO portal_app
    USING (id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin');
CREATE POLICY users_self_update ON users FOR UPDATE TO portal_app
    USING (id = (SELECT app_user_id())) WITH CHECK (id = (SELECT app_user_id()));
CREATE POLICY users_teacher ON users FOR SELECT TO portal_app USING (id = ANY ((SELECT app_students())::uuid[]));

DROP POLICY sessions_self ON auth_sessions;
DROP POLICY sessions_self_delete ON auth_sessions;
CREATE POLICY sessions_self ON auth_sessions FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin');
CREATE POLICY sessions_self_delete ON auth_sessions FOR DELETE TO portal_app USING (user_id = (SELECT app_user_id()));

DROP POLICY study_sessions_owner ON study_sessions;
DROP POLICY study_sessions_admin ON study_sessions;
DROP POLICY study_sessions_teacher ON study_sessions;
CREATE POLICY study_sessions_owner ON study_sessions TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (user_id IS NULL AND guest_key = (SELECT app_guest_key())))
    WITH CHECK (user_id = (SELECT app_user_id())
                OR (user_id IS NULL AND (SELECT app_user_id()) IS NULL AND guest_key = (SELECT app_guest_key())));
CREATE POLICY study_sessions_admin ON study_sessions FOR SELECT TO portal_app USING ((SELECT app_role()) = 'admin');
CREATE POLICY study_sessions_teacher ON study_sessions FOR SELECT TO portal_app USING (user_id = ANY ((SELECT app_students())::uuid[]));

DROP POLICY answers_read ON answers;
DROP POLICY answers_insert ON answers;
DROP POLICY answers_teacher ON answers;
CREATE POLICY answers_read ON answers FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin'
           OR (user_id IS NULL AND session_id IN (SELECT s.id FROM study_sessions s WHERE s.guest_key = (SELECT app_guest_key()))));
CREATE POLICY answers_insert ON answers FOR INSERT TO portal_app
    WITH CHECK (user_id IS NOT DISTINCT FROM (SELECT app_user_id())
                AND EXISTS (SELECT 1 FROM study_sessions s
                            WHERE s.id = session_id AND s.finished_at IS NULL
                              AND s.user_id IS NOT DISTINCT FROM (SELECT app_user_id())));
CREATE POLICY answers_teacher ON answers FOR SELECT TO portal_app USING (user_id = ANY ((SELECT app_students())::uuid[]));

DROP POLICY review_cards_owner ON review_cards;
DROP POLICY review_cards_admin ON review_cards;
DROP POLICY review_cards_teacher ON review_cards;
CREATE POLICY review_cards_owner ON review_cards TO portal_app
    USING (user_id = (SELECT app_user_id())) WITH CHECK (user_id = (SELECT app_user_id()));
CREATE POLICY review_cards_admin ON review_cards FOR SELECT TO portal_app USING ((SELECT app_role()) = 'admin');
CREATE POLICY review_cards_teacher ON review_cards FOR SELECT TO portal_app USING (user_id = ANY ((SELECT app_students())::uuid[]));

DROP POLICY question_reports_insert ON question_reports;
DROP POLICY question_reports_read ON question_reports;
DROP POLICY question_reports_resolve ON question_reports;
CREATE POLICY question_reports_insert ON question_reports FOR INSERT TO portal_app WITH CHECK (user_id = (SELECT app_user_id()));
CREATE POLICY question_reports_read ON question_reports FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin');
CREATE POLICY question_reports_resolve ON question_reports FOR UPDATE TO portal_app
    USING ((SELECT app_role()) = 'admin') WITH CHECK ((SELECT app_role()) = 'admin');

DROP POLICY live_events_create ON live_events;
DROP POLICY live_events_host ON live_events;
CREATE POLICY live_events_create ON live_events FOR INSERT TO portal_app
    WITH CHECK (host_id = (SELECT app_user_id()) AND (SELECT app_role()) IN ('teacher', 'admin'));
CREATE POLICY live_events_host ON live_events FOR UPDATE TO portal_app
    USING (host_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin')
    WITH CHECK (host_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin');

DROP POLICY live_participants_read ON live_participants;
DROP POLICY live_participants_join ON live_participants;
CREATE POLICY live_participants_read ON live_participants FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR guest_key = (SELECT app_guest_key())
           OR (SELECT app_role()) = 'admin' OR event_id = ANY ((SELECT app_hosted_events())::uuid[]));
CREATE POLICY live_participants_join ON live_participants FOR INSERT TO portal_app
    WITH CHECK (CASE WHEN user_id IS NULL THEN (SELECT app_user_id()) IS NULL AND guest_key = (SELECT app_guest_key())
                     ELSE user_id = (SELECT app_user_id()) AND guest_key IS NULL END);

DROP POLICY live_answers_read ON live_answers;
DROP POLICY live_answers_insert ON live_answers;
CREATE POLICY live_answers_read ON live_answers FOR SELECT TO portal_app
    USING ((SELECT app_role()) = 'admin' OR event_id = ANY ((SELECT app_hosted_events())::uuid[])
           OR participant_id IN (SELECT p.id FROM live_participants p
                                 WHERE p.user_id = (SELECT app_user_id()) OR p.guest_key = (SELECT app_guest_key())));
CREATE POLICY live_answers_insert ON live_answers FOR INSERT TO portal_app
    WITH CHECK (EXISTS (SELECT 1 FROM live_participants p WHERE p.id = participant_id AND p.event_id = live_answers.event_id
                        AND (p.user_id = (SELECT app_user_id()) OR p.guest_key = (SELECT app_guest_key()))));
DROP POLICY event_results_write ON event_results;

DROP POLICY schools_create ON schools;
CREATE POLICY schools_create ON schools FOR INSERT TO portal_app WITH CHECK ((SELECT app_role()) IN ('teacher', 'admin'));

DROP POLICY classes_teacher ON classes;
DROP POLICY classes_member ON classes;
CREATE POLICY classes_teacher ON classes TO portal_app
    USING (teacher_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin')
    WITH CHECK (teacher_id = (SELECT app_user_id()) AND (SELECT app_role()) IN ('teacher', 'admin'));
CREATE POLICY classes_member ON classes FOR SELECT TO portal_app USING (id = ANY ((SELECT app_member_classes())::uuid[]));

DROP POLICY class_members_read ON class_members;
DROP POLICY class_members_join ON class_members;
DROP POLICY class_members_leave ON class_members;
CREATE POLICY class_members_read ON class_members FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin' OR class_id = ANY ((SELECT app_taught_classes())::uuid[]));
-- A student leaves; a teacher removes a current member. Both only end a membership.
CREATE POLICY class_members_leave ON class_members FOR UPDATE TO portal_app
    USING (user_id = (SELECT app_user_id()) AND left_at IS NULL)
    WITH CHECK (user_id = (SELECT app_user_id()) AND left_at IS NOT NULL);
CREATE POLICY class_members_remove ON class_members FOR UPDATE TO portal_app
    USING (class_id = ANY ((SELECT app_taught_classes())::uuid[]) AND left_at IS NULL)
    WITH CHECK (class_id = ANY ((SELECT app_taught_classes())::uuid[]) AND left_at IS NOT NULL);

DROP POLICY share_links_owner ON share_links;
CREATE POLICY share_links_owner ON share_links TO portal_app
    USING (created_by = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin')
    WITH CHECK (created_by = (SELECT app_user_id()) AND (SELECT app_role()) IN ('teacher', 'admin')
                AND (class_id IS NULL OR class_id = ANY ((SELECT app_taught_classes())::uuid[])));

DROP POLICY audit_log_read ON audit_log;
DROP POLICY audit_log_write ON audit_log;
CREATE POLICY audit_log_read ON audit_log FOR SELECT TO portal_app USING ((SELECT app_role()) = 'admin');
CREATE POLICY audit_log_write ON audit_log FOR INSERT TO portal_app
    WITH CHECK ((SELECT app_role()) = 'admin' AND actor_id = (SELECT app_user_id()));

DROP POLICY question_versions_admin ON question_versions;
DROP POLICY question_versions_write ON question_versions;
CREATE POLICY question_versions_admin ON question_versions FOR SELECT TO portal_app USING ((SELECT app_role()) = 'admin');
CREATE POLICY question_versions_write ON question_versions FOR INSERT TO portal_app WITH CHECK ((SELECT app_role()) = 'admin');

-- ---------------------------------------------------------------------------------------------
-- The leaderboard counts the answers that count (the first in practice, the last in time in a
-- mock exam) and days by when the answer arrived, not by a device's date: twenty uploads of
-- one question dated on twenty past days are one day's points.
DROP MATERIALIZED VIEW leaderboard_entries;
CREATE MATERIALIZED VIEW leaderboard_entries AS
WITH final_answers AS (
    SELECT DISTINCT ON (a.session_id, a.question_id)
           a.session_id, a.user_id, a.question_id, a.correct, a.received_at
    FROM public.answers a JOIN public.study_sessions s ON s.id = a.session_id
    ORDER BY a.session_id, a.question_id,
             CASE WHEN s.mode = 'mock' THEN a.received_at END DESC,
             CASE WHEN s.mode = 'mock' THEN a.answered_at END DESC,
             CASE WHEN s.mode <> 'mock' THEN a.received_at END,
             CASE WHEN s.mode <> 'mock' THEN a.answered_at END,
             a.id
), facts AS (
    SELECT f.session_id, f.user_id, f.question_id, f.correct, f.received_at, d.exam_id, q.difficulty,
           (f.received_at AT TIME ZONE 'UTC')::date AS day
    FROM final_answers f JOIN public.questions q ON q.id = f.question_id JOIN public.domains d ON d.id = q.domain_id
), periods AS (
    SELECT 'all'::text AS period, facts.* FROM facts
    UNION ALL
    SELECT 'week'::text, facts.* FROM facts
    WHERE facts.received_at >= date_trunc('week', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
), points AS (
    SELECT period, exam_id, user_id, sum(10 * difficulty)::bigint AS points
    FROM (SELECT DISTINCT period, exam_id, user_id, question_id, day, difficulty FROM periods WHERE correct) AS scored
    GROUP BY period, exam_id, user_id
), activity AS (
    SELECT period, exam_id, user_id, count(DISTINCT session_id) AS sessions, count(*) AS answered,
           count(*) FILTER (WHERE correct) AS correct
    FROM periods GROUP BY period, exam_id, user_id
)
SELECT a.period, a.exam_id, a.user_id, u.display_name, coalesce(p.points, 0) AS points, a.sessions, a.answered, a.correct,
       rank() OVER (PARTITION BY a.period, a.exam_id ORDER BY coalesce(p.points, 0) DESC) AS rank,
       row_number() OVER (PARTITION BY a.period, a.exam_id
                          ORDER BY coalesce(p.points, 0) DESC, a.correct DESC, u.display_name, a.user_id) AS place
FROM activity a
JOIN public.users u ON u.id = a.user_id
LEFT JOIN points p ON p.period = a.period AND p.exam_id = a.exam_id AND p.user_id = a.user_id
WITH NO DATA;
CREATE UNIQUE INDEX leaderboard_entries_key ON leaderboard_entries (period, exam_id, user_id);
CREATE INDEX leaderboard_entries_position ON leaderboard_entries (exam_id, period, place);
GRANT CREATE ON SCHEMA public TO portal_leaderboard;
ALTER MATERIALIZED VIEW leaderboard_entries OWNER TO portal_leaderboard;
REVOKE ALL ON leaderboard_entries FROM PUBLIC;

CREATE OR REPLACE FUNCTION leaderboard_refreshed_at() RETURNS timestamptz
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT max(r.refreshed_at) FROM public.leaderboard_refreshes r
$$;

CREATE OR REPLACE FUNCTION leaderboard_refresh(p_every interval, p_instance text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    started timestamptz := clock_timestamp();
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('study-portal leaderboard refresh')) THEN
        RETURN false;
    END IF;
    IF EXISTS (SELECT 1 FROM public.leaderboard_refreshes r WHERE r.refreshed_at > clock_timestamp() - p_every) THEN
        RETURN false;
    END IF;
    REFRESH MATERIALIZED VIEW CONCURRENTLY public.leaderboard_entries;
    -- Fresh statistics, so a student's own row is found through the key, not by a scan.
    ANALYZE public.leaderboard_entries;
    INSERT INTO public.leaderboard_refreshes (refreshed_at, duration_ms, entries, instance)
    VALUES (clock_timestamp(), (extract(epoch FROM clock_timestamp() - started) * 1000)::integer,
            (SELECT count(*) FROM public.leaderboard_entries), left(p_instance, 100));
    RETURN true;
END
$$;

CREATE OR REPLACE FUNCTION leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer)
    RETURNS TABLE (place bigint, rank bigint, display_name text, points bigint, sessions bigint, answered bigint,
                   correct bigint, is_viewer boolean)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT e.place, e.rank, e.display_name, e.points, e.sessions, e.answered, e.correct,
           coalesce(e.user_id = (SELECT public.app_user_id()), false)
    FROM public.leaderboard_entries e
    WHERE e.exam_id = p_exam AND e.period = p_period
      AND e.place > greatest(p_offset, 0) AND e.place <= greatest(p_offset, 0) + least(greatest(p_limit, 0), 100)
    ORDER BY e.place
$$;

CREATE OR REPLACE FUNCTION leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer)
    RETURNS TABLE (place bigint, rank bigint, display_name text, points bigint, sessions bigint, answered bigint,
                   correct bigint, is_viewer boolean)
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    me uuid := public.app_user_id();
    mine bigint;
    radius integer := least(greatest(p_radius, 0), 10);
BEGIN
    IF me IS NULL THEN
        RETURN;
    END IF;
    SELECT m.place INTO mine FROM public.leaderboard_entries m
    WHERE m.exam_id = p_exam AND m.period = p_period AND m.user_id = me;
    IF mine IS NULL THEN
        RETURN;
    END IF;
    RETURN QUERY
        SELECT e.place, e.rank, e.display_name, e.points, e.sessions, e.answered, e.correct, e.user_id = me
        FROM public.leaderboard_entries e
        WHERE e.exam_id = p_exam AND e.period = p_period AND e.place BETWEEN mine - radius AND mine + radius
        ORDER BY e.place;
END
$$;

CREATE OR REPLACE FUNCTION leaderboard_size(p_exam bigint, p_period text) RETURNS bigint
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    -- Places run 1…n without gaps, so the last place is the count: one index probe.
    SELECT coalesce(max(e.place), 0) FROM public.leaderboard_entries e WHERE e.exam_id = p_exam AND e.period = p_period
$$;
REVOKE CREATE ON SCHEMA public FROM portal_leaderboard;

REFRESH MATERIALIZED VIEW leaderboard_entries;
ANALYZE leaderboard_entries;

-- Item statistics read the answers that count, too.
CREATE OR REPLACE VIEW item_responses WITH (security_invoker = true) AS
WITH first_attempts AS (
    SELECT DISTINCT ON (s.user_id, s.exam_id) s.id, s.exam_id, s.question_ids
    FROM public.study_sessions s
    WHERE s.mode = 'mock' AND s.finished_at IS NOT NULL AND s.user_id IS NOT NULL
    ORDER BY s.user_id, s.exam_id, s.started_at, s.id
), final_answers AS (
    SELECT c.session_id, c.question_id, c.correct, c.response, c.time_ms
    FROM public.counted_answers c JOIN first_attempts f ON f.id = c.session_id
), items AS (
    SELECT f.id AS session_id, f.exam_id, item.question_id, coalesce(x.correct, false) AS correct, x.response, x.time_ms
    FROM first_attempts f CROSS JOIN LATERAL unnest(f.question_ids) AS item(question_id)
    LEFT JOIN final_answers x ON x.session_id = f.id AND x.question_id = item.question_id
)
SELECT i.session_id, i.exam_id, i.question_id, i.correct, i.response, i.time_ms,
       (count(*) FILTER (WHERE i.correct) OVER (PARTITION BY i.session_id)) - i.correct::integer AS rest
FROM items i;

-- ---------------------------------------------------------------------------------------------
-- Fixed search paths on the remaining functions, definer or not.
ALTER FUNCTION exams_touch_from_questions() SET search_path = pg_catalog, public, pg_temp;
ALTER FUNCTION exams_touch_from_domains() SET search_path = pg_catalog, public, pg_temp;
ALTER FUNCTION exams_touch_self() SET search_path = pg_catalog, public, pg_temp;
ALTER FUNCTION fsrs_retrievability(double precision, timestamptz, timestamptz) SET search_path = pg_catalog, public, pg_temp;

REVOKE CREATE ON SCHEMA public FROM portal_auth;
