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
--
-- This migration holds the tables and grants; the functions it brings (jwt_verified,
-- lti_sign_in, sso_finish and their helpers) and the tables' policies are in db/.

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
-- How each set stands (the admin pages say so); public keys, nothing secret.
GRANT SELECT ON key_sets TO portal_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON key_sets, key_set_keys TO portal_agent;
GRANT SELECT, INSERT, UPDATE ON key_sets TO portal_auth;
GRANT SELECT ON key_set_keys TO portal_auth;

-- The agent reads which sets to fetch from the registrations.
GRANT SELECT (id, issuer, client_id, jwks_url) ON lti_platforms TO portal_agent;

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
GRANT SELECT, INSERT, DELETE ON used_tokens TO portal_auth;

-- ---------------------------------------------------------------------------------------------
-- LTI: the login's state, bound to the browser that began it

-- The login's own cookie (SameSite=None; Secure; Partitioned), the platform's postMessage
-- storage when it offered one, and the user agent and address as the last resort.
ALTER TABLE lti_states ADD COLUMN cookie_hash bytea CHECK (octet_length(cookie_hash) = 32);
ALTER TABLE lti_states ADD COLUMN storage_target text CHECK (length(storage_target) BETWEEN 1 AND 200);
-- States are made by lti_begin_login only (counted against the limits); never by a statement.
REVOKE INSERT ON lti_states FROM portal_app;
GRANT INSERT ON lti_states TO portal_auth;
DROP FUNCTION lti_take_state(text, bytea);
DROP FUNCTION lti_sign_in(text, text, text, text, boolean, text, text, text, text, text, text);

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
GRANT SELECT (id, issuer, client_id, client_secret, client_auth, token_endpoint, jwks_uri) ON sso_providers TO portal_agent;
-- States are made by sso_begin only (counted against the limits).
REVOKE INSERT ON sso_states FROM portal_app;
GRANT INSERT ON sso_states TO portal_auth;
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
GRANT SELECT, INSERT, UPDATE, DELETE ON sso_exchanges TO portal_auth;
GRANT SELECT (state_hash, code, redirect_uri, requested_at, leased_until, answered_at), UPDATE (leased_until, id_token, problem, answered_at)
    ON sso_exchanges TO portal_agent;

DROP FUNCTION sso_take_state(text, bytea);
DROP FUNCTION sso_sign_in(text, text, text, boolean, text, text, text);
DROP FUNCTION sso_link(text, text);

-- ---------------------------------------------------------------------------------------------
-- Deep linking: the platform's `data` claim is returned exactly as it came, whatever JSON value
-- it is (a platform that checks the echo refuses anything else).

ALTER TABLE lti_deep_links DROP CONSTRAINT IF EXISTS lti_deep_links_data_check;
ALTER TABLE lti_deep_links ALTER COLUMN data TYPE jsonb USING to_jsonb(data);
ALTER TABLE lti_deep_links ADD CONSTRAINT lti_deep_links_data_size CHECK (length(data::text) <= 4000);
