-- Single sign-on with a school's identity provider (OpenID Connect, authorisation code + PKCE).
-- Accounts are linked by (issuer, sub) in external_identities (kind 'sso'), never by e-mail.

CREATE TABLE sso_providers (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    issuer text NOT NULL UNIQUE CHECK (issuer ~ '^https?://[^\s]+$' AND length(issuer) <= 300),
    -- The provider's name in the portal's addresses: /auth/{slug} and /auth/{slug}/callback.
    slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
    label text NOT NULL CHECK (length(btrim(label)) BETWEEN 1 AND 60),
    client_id text NOT NULL CHECK (length(client_id) BETWEEN 1 AND 300),
    client_secret text NOT NULL CHECK (length(client_secret) BETWEEN 1 AND 500),
    -- From the provider's discovery document, read when it was registered.
    authorization_endpoint text NOT NULL CHECK (authorization_endpoint ~ '^https?://[^\s]+$'),
    token_endpoint text NOT NULL CHECK (token_endpoint ~ '^https?://[^\s]+$'),
    jwks_uri text NOT NULL CHECK (jwks_uri ~ '^https?://[^\s]+$'),
    -- Who may come in: e-mail domains, or values of the `hd` (Google) or `tid` (Microsoft)
    -- claim; none listed admits anyone the provider signs in.
    allowed_domains text[] NOT NULL DEFAULT '{}',
    -- A claim (e.g. `groups`) and the values that make a teacher; otherwise a student.
    teacher_claim text CHECK (teacher_claim ~ '^[A-Za-z0-9_:./-]{1,100}$'),
    teacher_values text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE sso_providers ENABLE ROW LEVEL SECURITY;
ALTER TABLE sso_providers FORCE ROW LEVEL SECURITY;
-- The sign-in page lists every provider (its label); admins add and change them.
CREATE POLICY sso_providers_read ON sso_providers FOR SELECT TO portal_app USING (true);
CREATE POLICY sso_providers_admin_add ON sso_providers FOR INSERT TO portal_app WITH CHECK (app_role() = 'admin');
CREATE POLICY sso_providers_admin_change ON sso_providers FOR UPDATE TO portal_app USING (app_role() = 'admin') WITH CHECK (app_role() = 'admin');
CREATE POLICY sso_providers_auth ON sso_providers FOR SELECT TO portal_auth USING (true);
-- The secret is not among the columns portal_app reads: the code exchange gets it through
-- sso_client_secret, for one provider at a time.
GRANT SELECT (id, issuer, slug, label, client_id, authorization_endpoint, token_endpoint, jwks_uri, allowed_domains, teacher_claim, teacher_values, created_at)
    ON sso_providers TO portal_app;
GRANT INSERT (issuer, slug, label, client_id, client_secret, authorization_endpoint, token_endpoint, jwks_uri, allowed_domains, teacher_claim, teacher_values)
    ON sso_providers TO portal_app;
GRANT UPDATE (slug, label, client_id, client_secret, authorization_endpoint, token_endpoint, jwks_uri, allowed_domains, teacher_claim, teacher_values)
    ON sso_providers TO portal_app;
GRANT SELECT ON sso_providers TO portal_auth;

-- A sign-in under way: keyed by its state's hash, with the nonce and the PKCE verifier, the
-- hash of the browser's own cookie (the callback must come from the browser that began it),
-- and, when a signed-in user is linking a provider, who.
CREATE TABLE sso_states (
    state_hash bytea PRIMARY KEY CHECK (octet_length(state_hash) = 32),
    provider_id bigint NOT NULL REFERENCES sso_providers(id) ON DELETE CASCADE,
    nonce text NOT NULL CHECK (nonce ~ '^[A-Za-z0-9_-]{16,64}$'),
    verifier text NOT NULL CHECK (verifier ~ '^[A-Za-z0-9_~.-]{43,128}$'),
    browser_hash bytea NOT NULL CHECK (octet_length(browser_hash) = 32),
    link_user uuid REFERENCES users(id) ON DELETE CASCADE,
    return_to text NOT NULL DEFAULT '/me' CHECK (return_to ~ '^/' AND length(return_to) <= 500),
    created_at timestamptz NOT NULL,
    used_at timestamptz,
    signed_in_at timestamptz
);
CREATE INDEX sso_states_by_age ON sso_states (created_at);
ALTER TABLE sso_states ENABLE ROW LEVEL SECURITY;
ALTER TABLE sso_states FORCE ROW LEVEL SECURITY;
-- Anyone may begin; a link is begun only by the user it links.
CREATE POLICY sso_states_add ON sso_states FOR INSERT TO portal_app
    WITH CHECK (used_at IS NULL AND (link_user IS NULL OR link_user = app_user_id()));
CREATE POLICY sso_states_auth ON sso_states TO portal_auth USING (true) WITH CHECK (true);
GRANT INSERT ON sso_states TO portal_app;
GRANT SELECT, UPDATE, DELETE ON sso_states TO portal_auth;

-- Takes a state once: 'ok' with its provider, nonce, verifier, linking user and return path;
-- else 'unknown', 'used', 'expired' (ten minutes) or 'other_browser'.
CREATE FUNCTION sso_take_state(p_state text, p_browser bytea)
    RETURNS TABLE (outcome text, provider_id bigint, nonce text, verifier text, link_user uuid, return_to text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    taken record;
BEGIN
    DELETE FROM public.sso_states WHERE state_hash IN (
        SELECT s.state_hash FROM public.sso_states s WHERE s.created_at < now_at - interval '1 day' LIMIT 20);
    SELECT s.* INTO taken FROM public.sso_states s WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'unknown', NULL::bigint, NULL::text, NULL::text, NULL::uuid, NULL::text;
        RETURN;
    END IF;
    IF taken.used_at IS NOT NULL THEN
        RETURN QUERY SELECT 'used', NULL::bigint, NULL::text, NULL::text, NULL::uuid, NULL::text;
        RETURN;
    END IF;
    UPDATE public.sso_states SET used_at = now_at WHERE state_hash = taken.state_hash;
    IF taken.created_at < now_at - interval '10 minutes' THEN
        RETURN QUERY SELECT 'expired', NULL::bigint, NULL::text, NULL::text, NULL::uuid, NULL::text;
    ELSIF taken.browser_hash <> p_browser THEN
        RETURN QUERY SELECT 'other_browser', NULL::bigint, NULL::text, NULL::text, NULL::uuid, NULL::text;
    ELSE
        RETURN QUERY SELECT 'ok', taken.provider_id, taken.nonce, taken.verifier, taken.link_user, taken.return_to;
    END IF;
END
$$;

-- The client secret for the code exchange of a sign-in whose state was just taken.
CREATE FUNCTION sso_client_secret(p_provider bigint) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT p.client_secret FROM public.sso_providers p WHERE p.id = p_provider
$$;

-- Signs the provider's user in after the app has checked the id_token (signature, issuer,
-- audience, expiry, nonce, the allowed domains): within five minutes of taking the state,
-- once. The account is found by (issuer, sub) or made (a teacher when the provider's claim
-- says so, never an admin; a student raised to teacher when it says so later); a session opens
-- for `p_token`. Returns 'ok' with the user, or 'no_state', 'disabled'.
CREATE FUNCTION sso_sign_in(p_state text, p_subject text, p_name text, p_teacher boolean, p_token text, p_csrf text, p_user_agent text)
    RETURNS TABLE (outcome text, user_id uuid)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    provider bigint;
    provider_issuer text;
    account record;
BEGIN
    UPDATE public.sso_states s SET signed_in_at = now_at
    WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) AND s.used_at > now_at - interval '5 minutes' AND s.signed_in_at IS NULL
      AND s.link_user IS NULL
    RETURNING s.provider_id INTO provider;
    IF provider IS NULL THEN
        RETURN QUERY SELECT 'no_state', NULL::uuid;
        RETURN;
    END IF;
    SELECT p.issuer INTO provider_issuer FROM public.sso_providers p WHERE p.id = provider;
    SELECT a.id, a.disabled INTO account FROM public.external_account('sso', provider_issuer, p_subject, p_name, 'Student', p_teacher, now_at) a;
    IF account.disabled THEN
        RETURN QUERY SELECT 'disabled', NULL::uuid;
        RETURN;
    END IF;
    PERFORM public.auth_open_session(account.id, p_token, p_csrf, p_user_agent, now_at);
    RETURN QUERY SELECT 'ok', account.id;
END
$$;

-- Links the provider's user to the signed-in caller who began the link (the state says who):
-- 'linked', 'taken' (that identity is another account's), 'no_state'.
CREATE FUNCTION sso_link(p_state text, p_subject text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    provider bigint;
    provider_issuer text;
    owner uuid;
BEGIN
    UPDATE public.sso_states s SET signed_in_at = now_at
    WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) AND s.used_at > now_at - interval '5 minutes' AND s.signed_in_at IS NULL
      AND s.link_user = me AND me IS NOT NULL
    RETURNING s.provider_id INTO provider;
    IF provider IS NULL THEN
        RETURN 'no_state';
    END IF;
    SELECT p.issuer INTO provider_issuer FROM public.sso_providers p WHERE p.id = provider;
    SELECT i.user_id INTO owner FROM public.external_identities i WHERE i.kind = 'sso' AND i.issuer = provider_issuer AND i.subject = p_subject;
    IF owner IS NOT NULL AND owner <> me THEN
        RETURN 'taken';
    END IF;
    INSERT INTO public.external_identities (kind, issuer, subject, user_id) VALUES ('sso', provider_issuer, p_subject, me)
    ON CONFLICT (kind, issuer, subject) DO NOTHING;
    RETURN 'linked';
END
$$;

-- Unlinks a provider from the caller, keeping at least one way in (a password, or another
-- linked sign-in): 'unlinked', 'last_way_in', 'not_linked'.
CREATE FUNCTION sso_unlink(p_issuer text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL OR NOT EXISTS (SELECT 1 FROM public.external_identities i WHERE i.user_id = me AND i.kind = 'sso' AND i.issuer = p_issuer) THEN
        RETURN 'not_linked';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.users u WHERE u.id = me AND u.password_hash IS NOT NULL)
       AND NOT EXISTS (SELECT 1 FROM public.external_identities i WHERE i.user_id = me AND NOT (i.kind = 'sso' AND i.issuer = p_issuer)) THEN
        RETURN 'last_way_in';
    END IF;
    DELETE FROM public.external_identities i WHERE i.user_id = me AND i.kind = 'sso' AND i.issuer = p_issuer;
    RETURN 'unlinked';
END
$$;

GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION sso_take_state(text, bytea) OWNER TO portal_auth;
ALTER FUNCTION sso_client_secret(bigint) OWNER TO portal_auth;
ALTER FUNCTION sso_sign_in(text, text, text, boolean, text, text, text) OWNER TO portal_auth;
ALTER FUNCTION sso_link(text, text) OWNER TO portal_auth;
ALTER FUNCTION sso_unlink(text) OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION sso_take_state(text, bytea), sso_client_secret(bigint), sso_sign_in(text, text, text, boolean, text, text, text),
    sso_link(text, text), sso_unlink(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sso_take_state(text, bytea), sso_client_secret(bigint), sso_sign_in(text, text, text, boolean, text, text, text),
    sso_link(text, text), sso_unlink(text) TO portal_app;
