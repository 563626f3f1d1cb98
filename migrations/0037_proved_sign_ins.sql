-- Sign-ins from an LMS or an identity provider are decided by the database from a proof it
-- checks itself: the raw id_token, its RS256 signature verified here (PKCS #1 v1.5 over
-- SHA-256, the modular exponentiation done in `numeric`) against key sets that portal_app
-- cannot write, then its issuer, audience, times, nonce and claims. A hijacked portal_app can
-- no longer name a user, a subject or a role: it can only hand over a token, and only a genuine
-- one signs anyone in.
--
-- The key sets are fetched by a process of its own (`portal auth-agent`) connecting as
-- portal_agent, a role `portal serve` is never given; the same process exchanges single
-- sign-on codes for tokens, so the client secrets are readable by portal_agent alone.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'portal_agent') THEN
        CREATE ROLE portal_agent LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
    END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END
$$;
GRANT USAGE ON SCHEMA public TO portal_agent;

-- ---------------------------------------------------------------------------------------------
-- Arithmetic for RS256

-- base64url (no padding) as bytes; NULL when it is not base64url.
CREATE FUNCTION base64url_bytes(p_text text) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF p_text !~ '^[A-Za-z0-9_-]*$' OR length(p_text) % 4 = 1 THEN
        RETURN NULL;
    END IF;
    RETURN decode(rpad(translate(p_text, '-_', '+/'), (length(p_text) + 3) / 4 * 4, '='), 'base64');
END
$$;

-- Big-endian bytes as a whole number.
CREATE FUNCTION bytes_numeric(p_bytes bytea) RETURNS numeric
    LANGUAGE plpgsql IMMUTABLE STRICT SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    result numeric := 0;
    position integer;
BEGIN
    FOR position IN 0 .. length(p_bytes) - 1 LOOP
        result := result * 256 + get_byte(p_bytes, position);
    END LOOP;
    RETURN result;
END
$$;

-- p_base ^ p_exponent mod p_modulus, by squaring (17 multiplications for e = 65537).
CREATE FUNCTION numeric_modpow(p_base numeric, p_exponent numeric, p_modulus numeric) RETURNS numeric
    LANGUAGE plpgsql IMMUTABLE STRICT SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    result numeric := 1;
    base numeric := mod(p_base, p_modulus);
    exponent numeric := p_exponent;
BEGIN
    WHILE exponent > 0 LOOP
        IF mod(exponent, 2) = 1 THEN
            result := mod(result * base, p_modulus);
        END IF;
        exponent := div(exponent, 2);
        IF exponent > 0 THEN
            base := mod(base * base, p_modulus);
        END IF;
    END LOOP;
    RETURN result;
END
$$;

-- Whether `p_signature` is an RSASSA-PKCS1-v1_5 signature with SHA-256 of `p_input` by the key
-- (n, e) of `p_octets` bytes (RFC 8017 §8.2.2: s^e mod n must equal the encoded digest).
CREATE FUNCTION rs256_verifies(p_input text, p_signature bytea, p_modulus numeric, p_exponent numeric, p_octets integer) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    signature numeric;
    encoded bytea;
BEGIN
    IF octet_length(p_signature) <> p_octets OR p_octets < 62 THEN
        RETURN false;
    END IF;
    signature := public.bytes_numeric(p_signature);
    IF signature >= p_modulus THEN
        RETURN false;
    END IF;
    -- 0x00 0x01 FF…FF 0x00, the DER DigestInfo of SHA-256, the digest.
    encoded := '\x0001'::bytea || decode(repeat('ff', p_octets - 3 - 51), 'hex') || '\x00'::bytea
        || '\x3031300d060960864801650304020105000420'::bytea || sha256(convert_to(p_input, 'UTF8'));
    RETURN public.numeric_modpow(signature, p_exponent, p_modulus) = public.bytes_numeric(encoded);
END
$$;

-- ---------------------------------------------------------------------------------------------
-- Key sets, fetched by portal_agent only

CREATE TABLE key_sets (
    jwks_uri text PRIMARY KEY CHECK (jwks_uri ~ '^https?://[^\s]+$' AND length(jwks_uri) <= 2000),
    fetched_at timestamptz,
    failed_at timestamptz,
    problem text CHECK (length(problem) <= 500),
    -- A token named a key the set lacks: fetch it again (at most every ten seconds).
    wanted_at timestamptz,
    -- An agent fetching it now: one fetch per set at a time, whatever the number of agents.
    leased_until timestamptz
);
CREATE TABLE key_set_keys (
    jwks_uri text NOT NULL REFERENCES key_sets(jwks_uri) ON DELETE CASCADE,
    kid text NOT NULL CHECK (length(kid) BETWEEN 1 AND 200),
    modulus numeric NOT NULL,
    exponent numeric NOT NULL CHECK (exponent >= 3),
    octets integer NOT NULL CHECK (octets BETWEEN 256 AND 1024),
    PRIMARY KEY (jwks_uri, kid)
);
ALTER TABLE key_sets ENABLE ROW LEVEL SECURITY;
ALTER TABLE key_sets FORCE ROW LEVEL SECURITY;
ALTER TABLE key_set_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE key_set_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY key_sets_agent ON key_sets TO portal_agent USING (true) WITH CHECK (true);
CREATE POLICY key_set_keys_agent ON key_set_keys TO portal_agent USING (true) WITH CHECK (true);
CREATE POLICY key_sets_auth ON key_sets TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY key_set_keys_auth ON key_set_keys FOR SELECT TO portal_auth USING (true);
-- How each set stands (the admin pages say so); public keys, nothing secret.
CREATE POLICY key_sets_read ON key_sets FOR SELECT TO portal_app USING (true);
GRANT SELECT ON key_sets TO portal_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON key_sets, key_set_keys TO portal_agent;
GRANT SELECT, INSERT, UPDATE ON key_sets TO portal_auth;
GRANT SELECT ON key_set_keys TO portal_auth;

-- The agent reads which sets to fetch from the registrations.
CREATE POLICY lti_platforms_agent ON lti_platforms FOR SELECT TO portal_agent USING (true);
GRANT SELECT (id, issuer, client_id, jwks_url) ON lti_platforms TO portal_agent;

-- Replaces the keys of a set with a JSON Web Key Set's RSA signing keys (others are left out);
-- the agent's call after a fetch. Returns how many keys the set now has.
CREATE FUNCTION key_set_store(p_jwks_uri text, p_set jsonb) RETURNS integer
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    stored integer;
BEGIN
    INSERT INTO public.key_sets (jwks_uri) VALUES (p_jwks_uri) ON CONFLICT DO NOTHING;
    DELETE FROM public.key_set_keys k WHERE k.jwks_uri = p_jwks_uri;
    INSERT INTO public.key_set_keys (jwks_uri, kid, modulus, exponent, octets)
    SELECT DISTINCT ON (key->>'kid') p_jwks_uri, key->>'kid', public.bytes_numeric(n), public.bytes_numeric(e),
           octet_length(n) - CASE WHEN get_byte(n, 0) = 0 THEN 1 ELSE 0 END
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p_set->'keys') = 'array' THEN p_set->'keys' ELSE '[]'::jsonb END) key,
         LATERAL (SELECT public.base64url_bytes(key->>'n') AS n, public.base64url_bytes(key->>'e') AS e) raw
    WHERE key->>'kty' = 'RSA' AND coalesce(key->>'use', 'sig') = 'sig' AND length(key->>'kid') BETWEEN 1 AND 200
      AND raw.n IS NOT NULL AND raw.e IS NOT NULL AND octet_length(raw.n) BETWEEN 256 AND 1025 AND octet_length(raw.e) BETWEEN 1 AND 8
      AND (key->>'alg' IS NULL OR key->>'alg' = 'RS256');
    GET DIAGNOSTICS stored = ROW_COUNT;
    UPDATE public.key_sets s SET fetched_at = now_at, failed_at = NULL, problem = NULL, leased_until = NULL WHERE s.jwks_uri = p_jwks_uri;
    RETURN stored;
END
$$;
REVOKE ALL ON FUNCTION key_set_store(text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION key_set_store(text, jsonb) TO portal_agent;

-- A token named a key its issuer's set lacks (or the set was never fetched): asks the agent to
-- fetch it, at most every ten seconds per set, for registered sets only.
CREATE FUNCTION key_set_wanted(p_jwks_uri text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.lti_platforms p WHERE p.jwks_url = p_jwks_uri)
       AND NOT EXISTS (SELECT 1 FROM public.sso_providers p WHERE p.jwks_uri = p_jwks_uri) THEN
        RETURN;
    END IF;
    INSERT INTO public.key_sets (jwks_uri) VALUES (p_jwks_uri) ON CONFLICT DO NOTHING;
    UPDATE public.key_sets s SET wanted_at = now_at
    WHERE s.jwks_uri = p_jwks_uri AND (s.wanted_at IS NULL OR s.wanted_at < now_at - interval '10 seconds');
    IF FOUND THEN
        PERFORM pg_notify('key_sets', '');
    END IF;
END
$$;

-- A registration asks for its key set at once.
CREATE FUNCTION key_sets_registered() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    PERFORM pg_notify('key_sets', '');
    RETURN NULL;
END
$$;
CREATE TRIGGER lti_platforms_key_set AFTER INSERT OR UPDATE OF jwks_url ON lti_platforms
    FOR EACH STATEMENT EXECUTE FUNCTION key_sets_registered();
CREATE TRIGGER sso_providers_key_set AFTER INSERT OR UPDATE OF jwks_uri ON sso_providers
    FOR EACH STATEMENT EXECUTE FUNCTION key_sets_registered();

-- ---------------------------------------------------------------------------------------------
-- Tokens

-- A token once used to sign in is not taken again while it could still be valid.
CREATE TABLE used_tokens (
    digest bytea PRIMARY KEY CHECK (octet_length(digest) = 32),
    expires_at timestamptz NOT NULL
);
CREATE INDEX used_tokens_by_expiry ON used_tokens (expires_at);
ALTER TABLE used_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE used_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY used_tokens_auth ON used_tokens TO portal_auth USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, DELETE ON used_tokens TO portal_auth;

-- A compact JWS signed with RS256 by a key of the set at `p_jwks_uri`, whose times hold now:
-- 'ok' with its claims, else 'malformed', 'algorithm', 'keys_pending' (the set lacks its kid and
-- was not fetched in the last ten seconds: the caller asks for it, `key_set_wanted`),
-- 'unknown_key' (a set fetched just now lacks it), 'keys_unreachable' (the set's last fetch failed,
-- or was asked for half a minute ago and never made; the reason as `problem`), 'bad_signature',
-- 'expired', 'not_yet_valid'. Times have a minute's leeway.
CREATE FUNCTION jwt_verified(p_token text, p_jwks_uri text, OUT outcome text, OUT claims jsonb, OUT problem text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    parts text[];
    header jsonb;
    signature bytea;
    key record;
    key_set record;
    now_epoch numeric := extract(epoch FROM public.app_now());
BEGIN
    parts := string_to_array(p_token, '.');
    IF length(p_token) > 16384 OR cardinality(parts) <> 3 THEN
        outcome := 'malformed';
        RETURN;
    END IF;
    BEGIN
        header := convert_from(public.base64url_bytes(parts[1]), 'UTF8')::jsonb;
        claims := convert_from(public.base64url_bytes(parts[2]), 'UTF8')::jsonb;
    EXCEPTION WHEN OTHERS THEN
        outcome := 'malformed';
        claims := NULL;
        RETURN;
    END;
    signature := public.base64url_bytes(parts[3]);
    IF header IS NULL OR claims IS NULL OR signature IS NULL OR jsonb_typeof(header) <> 'object' OR jsonb_typeof(claims) <> 'object' THEN
        outcome := 'malformed';
        claims := NULL;
        RETURN;
    END IF;
    IF header->>'alg' IS DISTINCT FROM 'RS256' THEN
        outcome := 'algorithm';
        problem := left(coalesce(header->>'alg', 'none given'), 20);
        claims := NULL;
        RETURN;
    END IF;
    SELECT k.* INTO key FROM public.key_set_keys k WHERE k.jwks_uri = p_jwks_uri AND k.kid = header->>'kid';
    IF NOT FOUND THEN
        SELECT s.* INTO key_set FROM public.key_sets s WHERE s.jwks_uri = p_jwks_uri;
        IF FOUND AND key_set.failed_at IS NOT NULL AND key_set.failed_at > coalesce(key_set.fetched_at, '-infinity')
           AND key_set.failed_at > public.app_now() - interval '1 minute' THEN
            outcome := 'keys_unreachable';
            problem := key_set.problem;
        ELSIF FOUND AND key_set.fetched_at > public.app_now() - interval '10 seconds' THEN
            -- Fetched just now, and the key is not in it: the token is not the issuer's.
            outcome := 'unknown_key';
            problem := left(coalesce(header->>'kid', 'none given'), 80);
        ELSIF FOUND AND key_set.wanted_at < public.app_now() - interval '30 seconds'
              AND key_set.wanted_at > coalesce(key_set.fetched_at, '-infinity') THEN
            outcome := 'keys_unreachable';
            problem := 'the key set has not been fetched in time (is portal auth-agent running?)';
        ELSE
            outcome := 'keys_pending';
            problem := left(coalesce(header->>'kid', 'none given'), 80);
        END IF;
        claims := NULL;
        RETURN;
    END IF;
    IF NOT public.rs256_verifies(parts[1] || '.' || parts[2], signature, key.modulus, key.exponent, key.octets) THEN
        outcome := 'bad_signature';
        claims := NULL;
        RETURN;
    END IF;
    IF jsonb_typeof(claims->'exp') <> 'number' OR (claims->>'exp')::numeric + 60 < now_epoch THEN
        outcome := 'expired';
    ELSIF (jsonb_typeof(claims->'iat') = 'number' AND (claims->>'iat')::numeric > now_epoch + 60)
       OR (jsonb_typeof(claims->'nbf') = 'number' AND (claims->>'nbf')::numeric > now_epoch + 60) THEN
        outcome := 'not_yet_valid';
    ELSE
        outcome := 'ok';
        RETURN;
    END IF;
    claims := NULL;
END
$$;

-- Whether verified claims are meant for `p_client`: `aud` is the client or a list holding it; a
-- list of several names the authorised party (`azp`), which must be the client too.
CREATE FUNCTION jwt_meant_for(p_claims jsonb, p_client text) RETURNS boolean
    LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT CASE jsonb_typeof(p_claims->'aud')
        WHEN 'string' THEN p_claims->>'aud' = p_client
        WHEN 'array' THEN p_claims->'aud' @> to_jsonb(p_client)
            AND (jsonb_array_length(p_claims->'aud') = 1 OR p_claims ? 'azp')
        ELSE false END
        AND (NOT p_claims ? 'azp' OR p_claims->>'azp' = p_client)
$$;

-- Records a token as used (until it expires); false when it was used before.
CREATE FUNCTION token_first_use(p_token text, p_claims jsonb) RETURNS boolean
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    INSERT INTO public.used_tokens (digest, expires_at)
    VALUES (sha256(convert_to(p_token, 'UTF8')), to_timestamp((p_claims->>'exp')::numeric) + interval '1 minute')
    ON CONFLICT DO NOTHING;
    RETURN FOUND;
END
$$;

-- The name a token gives its user (`name`, else given and family names), at most 80 characters.
CREATE FUNCTION jwt_display_name(p_claims jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT left(btrim(coalesce(
        CASE WHEN jsonb_typeof(p_claims->'name') = 'string' THEN p_claims->>'name' END,
        concat_ws(' ', CASE WHEN jsonb_typeof(p_claims->'given_name') = 'string' THEN p_claims->>'given_name' END,
                       CASE WHEN jsonb_typeof(p_claims->'family_name') = 'string' THEN p_claims->>'family_name' END))), 80)
$$;

-- ---------------------------------------------------------------------------------------------
-- LTI: the login's state, bound to the browser that began it

-- The login's own cookie (SameSite=None; Secure; Partitioned), the platform's postMessage
-- storage when it offered one, and the user agent and address as the last resort.
ALTER TABLE lti_states ADD COLUMN cookie_hash bytea CHECK (octet_length(cookie_hash) = 32);
ALTER TABLE lti_states ADD COLUMN storage_target text CHECK (length(storage_target) BETWEEN 1 AND 200);
-- States are made by lti_begin_login only (counted against the limits); never by a statement.
DROP POLICY lti_states_add ON lti_states;
REVOKE INSERT ON lti_states FROM portal_app;
GRANT INSERT ON lti_states TO portal_auth;
DROP FUNCTION lti_take_state(text, bytea);
DROP FUNCTION lti_sign_in(text, text, text, text, boolean, text, text, text, text, text, text);

-- A login begun (`/lti/login`): at most 60 a minute from one address and 20,000 live in all.
-- Returns 0 when the state is kept, else the seconds to wait.
CREATE FUNCTION lti_begin_login(
    p_state_hash bytea, p_nonce text, p_platform bigint, p_target text, p_cookie bytea, p_agent bytea, p_storage_target text, p_client text)
    RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    wait integer;
BEGIN
    wait := public.rate_limit('lti_login', p_client, 60, 60, true);
    IF wait = 0 THEN
        wait := public.rate_limit('lti_login_all', '', 20000, 600, true);
    END IF;
    IF wait > 0 THEN
        RETURN wait;
    END IF;
    INSERT INTO public.lti_states (state_hash, nonce, platform_id, target_link_uri, browser_hash, cookie_hash, storage_target, created_at)
    VALUES (p_state_hash, p_nonce, p_platform, p_target, p_agent, p_cookie, p_storage_target, public.app_now());
    RETURN 0;
END
$$;

-- A launch (`POST /lti/launch`) decided whole: the state taken once and bound to the browser,
-- the id_token verified and its claims checked against the platform and the login, the
-- platform's user signed in (linked by issuer and sub; a teacher when the token's roles say so,
-- never an admin) with the course's class, and a session opened for `p_session`.
--
-- `p_binding` says what the app knows of the browser: 'cookie' (the login's cookie came back,
-- its hash `p_cookie`), 'top' (no cookie in a top-level window, where it would have come),
-- 'framed' (no cookie inside a frame, where a browser may drop it) or 'storage' (inside a frame,
-- the platform's storage held this state, as the portal's own page found). Returns 'ok' with
-- the user, the class and the verified claims, or why not: 'state_unknown', 'state_used',
-- 'state_expired', 'other_browser', 'needs_storage' and 'keys_pending' (nothing spent: ask the
-- platform's storage, or try again once the key set is fetched), 'keys_unreachable', 'malformed',
-- 'algorithm', 'bad_signature', 'expired', 'not_yet_valid', 'wrong_issuer', 'wrong_audience',
-- 'wrong_nonce', 'wrong_version', 'no_user', 'unknown_deployment', 'unknown_message',
-- 'deep_link_teachers', 'replayed', 'disabled'. `problem` adds the detail a page may show.
CREATE FUNCTION lti_sign_in(
    p_state text, p_id_token text, p_binding text, p_cookie bytea, p_agent bytea, p_session text, p_csrf text, p_user_agent text)
    RETURNS TABLE (outcome text, user_id uuid, class_id uuid, platform_id bigint, claims jsonb, problem text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
#variable_conflict use_column
DECLARE
    lti constant text := 'https://purl.imsglobal.org/spec/lti/claim/';
    now_at timestamptz := public.app_now();
    state record;
    bound boolean;
    platform record;
    verified record;
    payload jsonb;
    deployment text;
    user_subject text;
    message_type text;
    is_teacher boolean;
    context_key text;
    context_name text;
    roster_url text;
    account record;
    course record;
    made_class uuid;
    join_code_text text;
BEGIN
    SELECT s.* INTO state FROM public.lti_states s WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'state_unknown', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    IF state.used_at IS NOT NULL THEN
        RETURN QUERY SELECT 'state_used', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    IF state.created_at < now_at - interval '10 minutes' THEN
        UPDATE public.lti_states s SET used_at = now_at WHERE s.state_hash = state.state_hash;
        RETURN QUERY SELECT 'state_expired', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    SELECT p.* INTO platform FROM public.lti_platforms p WHERE p.id = state.platform_id;
    -- The browser: its cookie when it came back; never a top-level window without it; in a
    -- frame, the platform's storage when the platform offered one, else the user agent and
    -- address (the last resort, for platforms without storage in browsers that drop the cookie).
    bound := CASE p_binding
        WHEN 'cookie' THEN state.cookie_hash IS NOT NULL AND state.cookie_hash = p_cookie
        WHEN 'storage' THEN state.storage_target IS NOT NULL
        WHEN 'framed' THEN state.storage_target IS NULL AND state.browser_hash = p_agent
        ELSE false END;
    IF NOT coalesce(bound, false) THEN
        IF p_binding = 'framed' AND state.storage_target IS NOT NULL THEN
            RETURN QUERY SELECT 'needs_storage', NULL::uuid, NULL::uuid, platform.id, jsonb_build_object('auth_url', platform.auth_url), state.storage_target;
            RETURN;
        END IF;
        UPDATE public.lti_states s SET used_at = now_at WHERE s.state_hash = state.state_hash;
        RETURN QUERY SELECT 'other_browser', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;

    SELECT v.* INTO verified FROM public.jwt_verified(p_id_token, platform.jwks_url) v;
    IF verified.outcome = 'keys_pending' THEN
        PERFORM public.key_set_wanted(platform.jwks_url);
        RETURN QUERY SELECT 'keys_pending', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, verified.problem;
        RETURN;
    END IF;
    UPDATE public.lti_states s SET used_at = now_at WHERE s.state_hash = state.state_hash;
    IF verified.outcome <> 'ok' THEN
        RETURN QUERY SELECT verified.outcome, NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, verified.problem;
        RETURN;
    END IF;
    payload := verified.claims;
    deployment := CASE WHEN jsonb_typeof(payload->(lti || 'deployment_id')) = 'string' THEN payload->>(lti || 'deployment_id') END;
    user_subject := CASE WHEN jsonb_typeof(payload->'sub') = 'string' THEN payload->>'sub' END;
    message_type := payload->>(lti || 'message_type');
    IF payload->>'iss' IS DISTINCT FROM platform.issuer THEN
        RETURN QUERY SELECT 'wrong_issuer', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(payload->>'iss', 200);
        RETURN;
    ELSIF NOT public.jwt_meant_for(payload, platform.client_id) THEN
        RETURN QUERY SELECT 'wrong_audience', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    ELSIF payload->>'nonce' IS DISTINCT FROM state.nonce THEN
        RETURN QUERY SELECT 'wrong_nonce', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    ELSIF payload->>(lti || 'version') IS DISTINCT FROM '1.3.0' THEN
        RETURN QUERY SELECT 'wrong_version', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(coalesce(payload->>(lti || 'version'), 'none'), 20);
        RETURN;
    ELSIF user_subject IS NULL OR length(user_subject) NOT BETWEEN 1 AND 255 THEN
        RETURN QUERY SELECT 'no_user', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    ELSIF deployment IS NULL OR NOT EXISTS (
        SELECT 1 FROM public.lti_deployments d WHERE d.platform_id = platform.id AND d.deployment_id = deployment) THEN
        RETURN QUERY SELECT 'unknown_deployment', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(coalesce(deployment, 'none'), 200);
        RETURN;
    ELSIF message_type IS NULL OR message_type NOT IN ('LtiResourceLinkRequest', 'LtiDeepLinkingRequest') THEN
        RETURN QUERY SELECT 'unknown_message', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(coalesce(message_type, 'none'), 60);
        RETURN;
    END IF;
    is_teacher := jsonb_typeof(payload->(lti || 'roles')) = 'array' AND EXISTS (
        SELECT 1 FROM jsonb_array_elements(payload->(lti || 'roles')) r
        WHERE jsonb_typeof(r) = 'string'
          AND reverse(split_part(reverse(r #>> '{}'), '#', 1)) IN ('Instructor', 'TeachingAssistant', 'ContentDeveloper', 'Administrator'));
    IF message_type = 'LtiDeepLinkingRequest' AND NOT is_teacher THEN
        RETURN QUERY SELECT 'deep_link_teachers', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    IF NOT public.token_first_use(p_id_token, payload) THEN
        RETURN QUERY SELECT 'replayed', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    UPDATE public.lti_states s SET signed_in_at = now_at WHERE s.state_hash = state.state_hash;
    IF jsonb_typeof(payload->(lti || 'context')) = 'object' AND jsonb_typeof(payload->(lti || 'context')->'id') = 'string'
       AND length(payload->(lti || 'context')->>'id') BETWEEN 1 AND 255 THEN
        context_key := payload->(lti || 'context')->>'id';
        context_name := coalesce(nullif(payload->(lti || 'context')->>'title', ''), payload->(lti || 'context')->>'label');
    END IF;
    roster_url := payload->'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice'->>'context_memberships_url';

    SELECT a.id, a.disabled INTO account
    FROM public.external_account('lti', platform.issuer, user_subject, public.jwt_display_name(payload), 'Learner', is_teacher, now_at) a;
    IF account.disabled THEN
        RETURN QUERY SELECT 'disabled', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;

    IF context_key IS NOT NULL THEN
        INSERT INTO public.lti_contexts (platform_id, context_id, title, memberships_url)
        VALUES (platform.id, context_key, coalesce(nullif(btrim(left(context_name, 120)), ''), 'Course'), roster_url)
        ON CONFLICT ON CONSTRAINT lti_contexts_pkey DO UPDATE SET memberships_url = coalesce(EXCLUDED.memberships_url, lti_contexts.memberships_url);
        SELECT c.class_id, c.title INTO course FROM public.lti_contexts c WHERE c.platform_id = platform.id AND c.context_id = context_key FOR UPDATE;
        made_class := course.class_id;
        IF made_class IS NULL AND is_teacher THEN
            LOOP
                join_code_text := (SELECT string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 1 + floor(random() * 32)::int, 1), '') FROM generate_series(1, 8));
                EXIT WHEN NOT EXISTS (SELECT 1 FROM public.classes c WHERE c.join_code = join_code_text);
            END LOOP;
            INSERT INTO public.classes (teacher_id, name, join_code, created_at) VALUES (account.id, course.title, join_code_text, now_at)
            RETURNING id INTO made_class;
            UPDATE public.lti_contexts c SET class_id = made_class WHERE c.platform_id = platform.id AND c.context_id = context_key;
            INSERT INTO public.class_members (class_id, user_id, joined_at)
            SELECT made_class, w.user_id, now_at FROM public.lti_context_learners w
            WHERE w.platform_id = platform.id AND w.context_id = context_key AND w.user_id <> account.id
            ON CONFLICT DO NOTHING;
            DELETE FROM public.lti_context_learners w WHERE w.platform_id = platform.id AND w.context_id = context_key;
        ELSIF made_class IS NULL THEN
            INSERT INTO public.lti_context_learners (platform_id, context_id, user_id) VALUES (platform.id, context_key, account.id) ON CONFLICT DO NOTHING;
        ELSIF NOT EXISTS (SELECT 1 FROM public.classes c WHERE c.id = made_class AND c.teacher_id = account.id) THEN
            -- A member again even after leaving: the course says they belong to it.
            INSERT INTO public.class_members AS m (class_id, user_id, joined_at) VALUES (made_class, account.id, now_at)
            ON CONFLICT (class_id, user_id) DO UPDATE SET left_at = NULL, joined_at = EXCLUDED.joined_at WHERE m.left_at IS NOT NULL;
        END IF;
    END IF;

    PERFORM public.auth_open_session(account.id, p_session, p_csrf, p_user_agent, now_at);
    RETURN QUERY SELECT 'ok', account.id, made_class, platform.id, payload, NULL::text;
END
$$;

-- ---------------------------------------------------------------------------------------------
-- Single sign-on: the agent exchanges the code; the database checks what came back

-- The secret is for the agent's code exchange alone: no path gives it to portal_app.
DROP FUNCTION sso_client_secret(bigint);
ALTER TABLE sso_providers ALTER COLUMN client_secret DROP NOT NULL;
ALTER TABLE sso_providers DROP CONSTRAINT IF EXISTS sso_providers_client_secret_check;
ALTER TABLE sso_providers ADD CONSTRAINT sso_providers_client_secret_check CHECK (client_secret IS NULL OR length(client_secret) BETWEEN 1 AND 500);
-- How the agent proves who the portal is at the token endpoint: the client secret, or a JWT
-- signed with the tool's own key (`private_key_jwt`, when the provider offers it).
ALTER TABLE sso_providers ADD COLUMN client_auth text NOT NULL DEFAULT 'client_secret_post'
    CHECK (client_auth IN ('client_secret_post', 'private_key_jwt'));
ALTER TABLE sso_providers ADD CONSTRAINT sso_providers_has_credentials CHECK (client_auth = 'private_key_jwt' OR client_secret IS NOT NULL);
GRANT SELECT (client_auth) ON sso_providers TO portal_app;
GRANT INSERT (client_auth) ON sso_providers TO portal_app;
GRANT UPDATE (client_auth) ON sso_providers TO portal_app;
CREATE POLICY sso_providers_agent ON sso_providers FOR SELECT TO portal_agent USING (true);
GRANT SELECT (id, issuer, client_id, client_secret, client_auth, token_endpoint, jwks_uri) ON sso_providers TO portal_agent;
-- The agent signs its client assertions with the tool's key (made on first use by whichever
-- process needs it first).
GRANT EXECUTE ON FUNCTION lti_signing_key(), lti_add_key(text, text, text, text) TO portal_agent;

-- States are made by sso_begin only (counted against the limits).
DROP POLICY sso_states_add ON sso_states;
REVOKE INSERT ON sso_states FROM portal_app;
GRANT INSERT ON sso_states TO portal_auth;
CREATE POLICY sso_states_agent ON sso_states FOR SELECT TO portal_agent USING (true);
GRANT SELECT (state_hash, provider_id, verifier) ON sso_states TO portal_agent;

-- A code on its way to the provider's token endpoint, and what came back: the agent fills in
-- the id_token (or why there is none); sso_finish reads it, in the database only.
CREATE TABLE sso_exchanges (
    state_hash bytea PRIMARY KEY REFERENCES sso_states(state_hash) ON DELETE CASCADE,
    code text NOT NULL CHECK (length(code) BETWEEN 1 AND 2000),
    redirect_uri text NOT NULL CHECK (redirect_uri ~ '^https?://[^\s]+$' AND length(redirect_uri) <= 600),
    requested_at timestamptz NOT NULL,
    -- The agent's lease: instances of the agent never exchange one code twice.
    leased_until timestamptz,
    id_token text CHECK (length(id_token) <= 16384),
    problem text CHECK (length(problem) <= 500),
    answered_at timestamptz,
    finished_at timestamptz
);
CREATE INDEX sso_exchanges_waiting ON sso_exchanges (requested_at) WHERE answered_at IS NULL;
ALTER TABLE sso_exchanges ENABLE ROW LEVEL SECURITY;
ALTER TABLE sso_exchanges FORCE ROW LEVEL SECURITY;
CREATE POLICY sso_exchanges_auth ON sso_exchanges TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY sso_exchanges_agent ON sso_exchanges TO portal_agent USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON sso_exchanges TO portal_auth;
GRANT SELECT (state_hash, code, redirect_uri, requested_at, leased_until, answered_at), UPDATE (leased_until, id_token, problem, answered_at)
    ON sso_exchanges TO portal_agent;

DROP FUNCTION sso_take_state(text, bytea);
DROP FUNCTION sso_sign_in(text, text, text, boolean, text, text, text);
DROP FUNCTION sso_link(text, text);

-- A sign-in begun (`/auth/{provider}`): at most 30 a minute from one address and 20,000 live in
-- all; a link is begun only by the signed-in user it links. 0 when kept, else seconds to wait.
CREATE FUNCTION sso_begin(
    p_state_hash bytea, p_provider bigint, p_nonce text, p_verifier text, p_browser bytea, p_linking boolean, p_return_to text, p_client text)
    RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    wait integer;
BEGIN
    IF p_linking AND public.app_user_id() IS NULL THEN
        RAISE EXCEPTION 'a link is begun by a signed-in user' USING ERRCODE = '42501';
    END IF;
    wait := public.rate_limit('sso_begin', p_client, 30, 60, true);
    IF wait = 0 THEN
        wait := public.rate_limit('sso_begin_all', '', 20000, 600, true);
    END IF;
    IF wait > 0 THEN
        RETURN wait;
    END IF;
    INSERT INTO public.sso_states (state_hash, provider_id, nonce, verifier, browser_hash, link_user, return_to, created_at)
    VALUES (p_state_hash, p_provider, p_nonce, p_verifier, p_browser, CASE WHEN p_linking THEN public.app_user_id() END, p_return_to, public.app_now());
    RETURN 0;
END
$$;

-- The provider's answer (`/auth/{provider}/callback`): the state taken once, from the browser
-- that began it (its cookie's hash) and for the provider it began with, and the code queued
-- for the agent. 'ok' with whether it links and where to return; else 'unknown', 'used',
-- 'expired', 'other_browser', 'wrong_provider'.
CREATE FUNCTION sso_callback(p_state text, p_browser bytea, p_provider bigint, p_code text, p_redirect_uri text)
    RETURNS TABLE (outcome text, linking boolean, return_to text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    taken record;
BEGIN
    SELECT s.* INTO taken FROM public.sso_states s WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'unknown', NULL::boolean, NULL::text;
        RETURN;
    END IF;
    IF taken.used_at IS NOT NULL THEN
        RETURN QUERY SELECT 'used', NULL::boolean, NULL::text;
        RETURN;
    END IF;
    UPDATE public.sso_states SET used_at = now_at WHERE state_hash = taken.state_hash;
    IF taken.created_at < now_at - interval '10 minutes' THEN
        RETURN QUERY SELECT 'expired', NULL::boolean, NULL::text;
    ELSIF taken.browser_hash <> p_browser THEN
        RETURN QUERY SELECT 'other_browser', NULL::boolean, NULL::text;
    ELSIF taken.provider_id <> p_provider THEN
        RETURN QUERY SELECT 'wrong_provider', NULL::boolean, NULL::text;
    ELSE
        INSERT INTO public.sso_exchanges (state_hash, code, redirect_uri, requested_at) VALUES (taken.state_hash, p_code, p_redirect_uri, now_at);
        PERFORM pg_notify('sso_exchanges', '');
        RETURN QUERY SELECT 'ok', taken.link_user IS NOT NULL, taken.return_to;
    END IF;
END
$$;

-- The sign-in finished (`/auth/{provider}/finish`) in the browser that began it: the id_token
-- the agent received is verified against the provider's key set and checked (issuer,
-- audience, times, the login's nonce, the admitted domains), then the provider's user is
-- signed in (linked by issuer and sub; a teacher when the provider's claim says so) or, for a
-- link, linked to the signed-in user who began it. 'ok' (signed in) or 'linked' with the user
-- and where to return; 'pending' (the agent has not answered yet; also while the key set is
-- fetched), else 'no_exchange', 'timed_out', 'exchange_failed' (with the reason), the token's
-- refusals as for lti_sign_in, 'wrong_issuer', 'wrong_audience', 'wrong_nonce', 'no_user',
-- 'domain_not_allowed' (with the domain), 'replayed', 'link_signed_out', 'link_taken', 'disabled'.
CREATE FUNCTION sso_finish(p_browser bytea, p_provider bigint, p_session text, p_csrf text, p_user_agent text)
    RETURNS TABLE (outcome text, user_id uuid, return_to text, problem text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    flow record;
    provider record;
    verified record;
    payload jsonb;
    user_subject text;
    seen text[] := '{}';
    email text;
    is_teacher boolean := false;
    account record;
    owner uuid;
BEGIN
    SELECT s.state_hash, s.nonce, s.link_user, s.return_to, x.requested_at, x.id_token, x.problem AS failure, x.answered_at INTO flow
    FROM public.sso_states s JOIN public.sso_exchanges x ON x.state_hash = s.state_hash
    WHERE s.browser_hash = p_browser AND s.provider_id = p_provider AND x.finished_at IS NULL AND s.used_at > now_at - interval '10 minutes'
    ORDER BY x.requested_at DESC LIMIT 1
    FOR UPDATE OF x;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'no_exchange', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    IF flow.answered_at IS NULL THEN
        IF flow.requested_at < now_at - interval '1 minute' THEN
            UPDATE public.sso_exchanges x SET finished_at = now_at WHERE x.state_hash = flow.state_hash;
            RETURN QUERY SELECT 'timed_out', NULL::uuid, NULL::text, NULL::text;
        ELSE
            RETURN QUERY SELECT 'pending', NULL::uuid, NULL::text, NULL::text;
        END IF;
        RETURN;
    END IF;
    IF flow.id_token IS NULL THEN
        UPDATE public.sso_exchanges x SET finished_at = now_at WHERE x.state_hash = flow.state_hash;
        RETURN QUERY SELECT 'exchange_failed', NULL::uuid, NULL::text, flow.failure;
        RETURN;
    END IF;
    SELECT p.* INTO provider FROM public.sso_providers p WHERE p.id = p_provider;
    SELECT v.* INTO verified FROM public.jwt_verified(flow.id_token, provider.jwks_uri) v;
    IF verified.outcome = 'keys_pending' THEN
        PERFORM public.key_set_wanted(provider.jwks_uri);
        RETURN QUERY SELECT 'pending', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    UPDATE public.sso_exchanges x SET finished_at = now_at WHERE x.state_hash = flow.state_hash;
    IF verified.outcome <> 'ok' THEN
        RETURN QUERY SELECT verified.outcome, NULL::uuid, NULL::text, verified.problem;
        RETURN;
    END IF;
    payload := verified.claims;
    user_subject := CASE WHEN jsonb_typeof(payload->'sub') = 'string' THEN payload->>'sub' END;
    IF payload->>'iss' IS DISTINCT FROM provider.issuer THEN
        RETURN QUERY SELECT 'wrong_issuer', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    ELSIF NOT public.jwt_meant_for(payload, provider.client_id) THEN
        RETURN QUERY SELECT 'wrong_audience', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    ELSIF payload->>'nonce' IS DISTINCT FROM flow.nonce THEN
        RETURN QUERY SELECT 'wrong_nonce', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    ELSIF user_subject IS NULL OR length(user_subject) NOT BETWEEN 1 AND 255 THEN
        RETURN QUERY SELECT 'no_user', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    -- The admitted domains: a verified e-mail's domain, or the hd / tid claim.
    IF cardinality(provider.allowed_domains) > 0 THEN
        email := CASE WHEN jsonb_typeof(payload->'email') = 'string' AND payload->'email_verified' IS DISTINCT FROM 'false'::jsonb THEN payload->>'email' END;
        IF email LIKE '%@%' THEN
            seen := seen || lower(reverse(split_part(reverse(email), '@', 1)));
        END IF;
        IF jsonb_typeof(payload->'hd') = 'string' THEN seen := seen || lower(payload->>'hd'); END IF;
        IF jsonb_typeof(payload->'tid') = 'string' THEN seen := seen || lower(payload->>'tid'); END IF;
        IF NOT seen && (SELECT array_agg(lower(d)) FROM unnest(provider.allowed_domains) d) THEN
            RETURN QUERY SELECT 'domain_not_allowed', NULL::uuid, NULL::text, left(coalesce(seen[1], '—'), 100);
            RETURN;
        END IF;
    END IF;
    IF provider.teacher_claim IS NOT NULL AND cardinality(provider.teacher_values) > 0 THEN
        is_teacher := CASE jsonb_typeof(payload->provider.teacher_claim)
            WHEN 'string' THEN payload->>provider.teacher_claim = ANY (provider.teacher_values)
            WHEN 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements_text(payload->provider.teacher_claim) v WHERE v = ANY (provider.teacher_values))
            ELSE false END;
    END IF;
    IF NOT public.token_first_use(flow.id_token, payload) THEN
        RETURN QUERY SELECT 'replayed', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    UPDATE public.sso_states s SET signed_in_at = now_at WHERE s.state_hash = flow.state_hash;

    IF flow.link_user IS NOT NULL THEN
        IF public.app_user_id() IS DISTINCT FROM flow.link_user THEN
            RETURN QUERY SELECT 'link_signed_out', NULL::uuid, NULL::text, NULL::text;
            RETURN;
        END IF;
        SELECT i.user_id INTO owner FROM public.external_identities i WHERE i.kind = 'sso' AND i.issuer = provider.issuer AND i.subject = user_subject;
        IF owner IS NOT NULL AND owner <> flow.link_user THEN
            RETURN QUERY SELECT 'link_taken', NULL::uuid, NULL::text, NULL::text;
            RETURN;
        END IF;
        INSERT INTO public.external_identities (kind, issuer, subject, user_id) VALUES ('sso', provider.issuer, user_subject, flow.link_user)
        ON CONFLICT (kind, issuer, subject) DO NOTHING;
        RETURN QUERY SELECT 'linked', flow.link_user, flow.return_to, NULL::text;
        RETURN;
    END IF;
    SELECT a.id, a.disabled INTO account
    FROM public.external_account('sso', provider.issuer, user_subject, public.jwt_display_name(payload), 'Student', is_teacher, now_at) a;
    IF account.disabled THEN
        RETURN QUERY SELECT 'disabled', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    PERFORM public.auth_open_session(account.id, p_session, p_csrf, p_user_agent, now_at);
    RETURN QUERY SELECT 'ok', account.id, flow.return_to, NULL::text;
END
$$;

-- The agent's side of an exchange: the codes waiting (leased for a minute so two agents never
-- send one twice), with what the token request needs.
CREATE FUNCTION sso_exchanges_due(p_limit integer)
    RETURNS TABLE (state_hash bytea, code text, redirect_uri text, verifier text, provider_id bigint)
    LANGUAGE sql SET search_path = pg_catalog, public, pg_temp AS $$
    WITH due AS (
        SELECT x.state_hash FROM public.sso_exchanges x
        WHERE x.answered_at IS NULL AND (x.leased_until IS NULL OR x.leased_until < public.app_now())
          AND x.requested_at > public.app_now() - interval '1 minute'
        ORDER BY x.requested_at LIMIT p_limit FOR UPDATE SKIP LOCKED
    ), leased AS (
        UPDATE public.sso_exchanges x SET leased_until = public.app_now() + interval '1 minute' FROM due WHERE x.state_hash = due.state_hash
        RETURNING x.state_hash, x.code, x.redirect_uri
    )
    SELECT l.state_hash, l.code, l.redirect_uri, s.verifier, s.provider_id FROM leased l JOIN public.sso_states s ON s.state_hash = l.state_hash
$$;
REVOKE ALL ON FUNCTION sso_exchanges_due(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sso_exchanges_due(integer) TO portal_agent;

-- The key sets an agent should fetch now, each leased to it for half a minute: never fetched,
-- older than an hour, or wanted (a token named a key the set lacks) and not fetched in the last
-- ten seconds; a set whose fetch failed waits a minute before the next try.
CREATE FUNCTION key_sets_due(p_limit integer) RETURNS SETOF text
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
BEGIN
    INSERT INTO public.key_sets (jwks_uri)
    SELECT p.jwks_url FROM public.lti_platforms p UNION SELECT p.jwks_uri FROM public.sso_providers p
    ON CONFLICT DO NOTHING;
    RETURN QUERY
    WITH due AS (
        SELECT s.jwks_uri FROM public.key_sets s
        WHERE (s.leased_until IS NULL OR s.leased_until < now_at)
          AND (s.failed_at IS NULL OR s.failed_at < now_at - interval '1 minute')
          AND (s.fetched_at IS NULL OR s.fetched_at < now_at - interval '1 hour'
               OR (s.wanted_at > s.fetched_at AND s.fetched_at < now_at - interval '10 seconds'))
          AND (EXISTS (SELECT 1 FROM public.lti_platforms p WHERE p.jwks_url = s.jwks_uri)
               OR EXISTS (SELECT 1 FROM public.sso_providers p WHERE p.jwks_uri = s.jwks_uri))
        ORDER BY s.wanted_at DESC NULLS LAST, s.fetched_at NULLS FIRST LIMIT p_limit
        FOR UPDATE SKIP LOCKED
    )
    UPDATE public.key_sets s SET leased_until = now_at + interval '30 seconds' FROM due WHERE s.jwks_uri = due.jwks_uri
    RETURNING s.jwks_uri;
END
$$;
REVOKE ALL ON FUNCTION key_sets_due(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION key_sets_due(integer) TO portal_agent;

-- A fetch that failed: the reason kept (the admin pages show it) and the set left as it was.
CREATE FUNCTION key_set_failed(p_jwks_uri text, p_problem text) RETURNS void
    LANGUAGE sql SET search_path = pg_catalog, public, pg_temp AS $$
    UPDATE public.key_sets s SET failed_at = public.app_now(), problem = left(p_problem, 500), leased_until = NULL WHERE s.jwks_uri = p_jwks_uri
$$;
REVOKE ALL ON FUNCTION key_set_failed(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION key_set_failed(text, text) TO portal_agent;

-- The agent's answer to an exchange: the id_token the provider gave, or why there is none.
CREATE FUNCTION sso_exchange_answered(p_state_hash bytea, p_id_token text, p_problem text) RETURNS void
    LANGUAGE sql SET search_path = pg_catalog, public, pg_temp AS $$
    UPDATE public.sso_exchanges x SET id_token = p_id_token, problem = left(p_problem, 500), answered_at = public.app_now(), leased_until = NULL
    WHERE x.state_hash = p_state_hash AND x.answered_at IS NULL
$$;
REVOKE ALL ON FUNCTION sso_exchange_answered(bytea, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sso_exchange_answered(bytea, text, text) TO portal_agent;

-- ---------------------------------------------------------------------------------------------
-- Deep linking: the platform's `data` claim is returned exactly as it came, whatever JSON value
-- it is (a platform that checks the echo refuses anything else).

ALTER TABLE lti_deep_links DROP CONSTRAINT IF EXISTS lti_deep_links_data_check;
ALTER TABLE lti_deep_links ALTER COLUMN data TYPE jsonb USING to_jsonb(data);
ALTER TABLE lti_deep_links ADD CONSTRAINT lti_deep_links_data_size CHECK (length(data::text) <= 4000);

-- The request a token names, while unused and under an hour old; `p_use` marks it used (the
-- answer goes back to the platform once). `data` as JSON text.
CREATE OR REPLACE FUNCTION lti_deep_link(p_token text, p_use boolean)
    RETURNS TABLE (platform_id bigint, deployment_id text, return_url text, data text, accepts_line_item boolean)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
#variable_conflict use_column
BEGIN
    IF p_use THEN
        RETURN QUERY UPDATE public.lti_deep_links l SET used_at = public.app_now()
            WHERE l.token_hash = sha256(convert_to(p_token, 'UTF8')) AND l.used_at IS NULL AND l.created_at > public.app_now() - interval '1 hour'
            RETURNING l.platform_id, l.deployment_id, l.return_url, l.data::text, l.accepts_line_item;
    ELSE
        RETURN QUERY SELECT l.platform_id, l.deployment_id, l.return_url, l.data::text, l.accepts_line_item FROM public.lti_deep_links l
            WHERE l.token_hash = sha256(convert_to(p_token, 'UTF8')) AND l.used_at IS NULL AND l.created_at > public.app_now() - interval '1 hour';
    END IF;
END
$$;

-- The course's people who are in the class: its members, and its own teacher (who opened the
-- portal from the course too, and teaches the class rather than joining it).
CREATE OR REPLACE FUNCTION lti_roster_joined(p_class uuid, p_subjects text[]) RETURNS text[]
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT coalesce(array_agg(i.subject), '{}')
    FROM public.lti_contexts c
    JOIN public.lti_platforms p ON p.id = c.platform_id
    JOIN public.classes k ON k.id = c.class_id
    JOIN public.external_identities i ON i.kind = 'lti' AND i.issuer = p.issuer AND i.subject = ANY (p_subjects)
    WHERE c.class_id = p_class AND k.teacher_id = public.app_user_id()
      AND (i.user_id = k.teacher_id
           OR EXISTS (SELECT 1 FROM public.class_members m WHERE m.class_id = c.class_id AND m.user_id = i.user_id AND m.left_at IS NULL))
$$;

-- ---------------------------------------------------------------------------------------------
-- Pruning what anonymous visitors leave (the background job, every minute)

CREATE FUNCTION prune_anonymous_state() RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    total integer := 0;
    removed integer;
BEGIN
    DELETE FROM public.lti_states s WHERE s.created_at < now_at - interval '15 minutes';
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.sso_states s WHERE s.created_at < now_at - interval '15 minutes';
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.used_tokens t WHERE t.expires_at < now_at;
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.rate_limits r WHERE r.window_start < now_at - interval '1 day';
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN total + removed;
END
$$;

GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION jwt_verified(text, text) OWNER TO portal_auth;
ALTER FUNCTION key_set_wanted(text) OWNER TO portal_auth;
ALTER FUNCTION lti_begin_login(bytea, text, bigint, text, bytea, bytea, text, text) OWNER TO portal_auth;
ALTER FUNCTION lti_sign_in(text, text, text, bytea, bytea, text, text, text) OWNER TO portal_auth;
ALTER FUNCTION sso_begin(bytea, bigint, text, text, bytea, boolean, text, text) OWNER TO portal_auth;
ALTER FUNCTION sso_callback(text, bytea, bigint, text, text) OWNER TO portal_auth;
ALTER FUNCTION sso_finish(bytea, bigint, text, text, text) OWNER TO portal_auth;
ALTER FUNCTION prune_anonymous_state() OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION jwt_verified(text, text), key_set_wanted(text), lti_begin_login(bytea, text, bigint, text, bytea, bytea, text, text),
    lti_sign_in(text, text, text, bytea, bytea, text, text, text), sso_begin(bytea, bigint, text, text, bytea, boolean, text, text),
    sso_callback(text, bytea, bigint, text, text), sso_finish(bytea, bigint, text, text, text), prune_anonymous_state() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION key_set_wanted(text), lti_begin_login(bytea, text, bigint, text, bytea, bytea, text, text),
    lti_sign_in(text, text, text, bytea, bytea, text, text, text), sso_begin(bytea, bigint, text, text, bytea, boolean, text, text),
    sso_callback(text, bytea, bigint, text, text), sso_finish(bytea, bigint, text, text, text), prune_anonymous_state() TO portal_app;
