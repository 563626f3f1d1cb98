-- LTI 1.3: the tool's own RSA keys and the platforms (LMSs) registered to launch it.
--
-- The tool's keys: the private half is never readable by portal_app's queries; the app signs
-- through lti_signing_key(), which hands over the current key only, and publishes through
-- lti_public_keys(), which gives the public halves of the current key and of keys retired in the
-- last week (so a platform that cached the old key set can still check a token signed before a
-- rotation). A key is added by lti_add_key() only when there is no current one (the first use),
-- or by the owner rotating it.
CREATE TABLE lti_tool_keys (
    kid text PRIMARY KEY CHECK (kid ~ '^[A-Za-z0-9_-]{8,64}$'),
    private_pem text NOT NULL CHECK (private_pem LIKE '-----BEGIN PRIVATE KEY-----%'),
    modulus text NOT NULL CHECK (modulus ~ '^[A-Za-z0-9_-]+$' AND length(modulus) >= 340),
    exponent text NOT NULL CHECK (exponent ~ '^[A-Za-z0-9_-]{1,12}$'),
    created_at timestamptz NOT NULL DEFAULT now(),
    retired_at timestamptz
);
CREATE UNIQUE INDEX lti_tool_keys_one_current ON lti_tool_keys ((true)) WHERE retired_at IS NULL;
-- No role but the owner has any right on the table; row-level security (with no policy) stands
-- behind that for anyone granted something by mistake. The owner's functions below reach it.
ALTER TABLE lti_tool_keys ENABLE ROW LEVEL SECURITY;
REVOKE ALL ON lti_tool_keys FROM PUBLIC;

CREATE FUNCTION lti_signing_key(OUT kid text, OUT private_pem text)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT k.kid, k.private_pem FROM public.lti_tool_keys k WHERE k.retired_at IS NULL
$$;

CREATE FUNCTION lti_public_keys() RETURNS TABLE (kid text, modulus text, exponent text)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT k.kid, k.modulus, k.exponent FROM public.lti_tool_keys k
    WHERE k.retired_at IS NULL OR k.retired_at > now() - interval '7 days'
    ORDER BY k.created_at DESC, k.kid
$$;

-- The first key, made by the app on first use: refused (false) when a current key exists.
CREATE FUNCTION lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    INSERT INTO public.lti_tool_keys (kid, private_pem, modulus, exponent) VALUES (p_kid, p_private_pem, p_modulus, p_exponent)
    ON CONFLICT DO NOTHING;
    RETURN FOUND;
END
$$;

-- The owner's rotation: the current key retires (still published for a week), the new one signs.
CREATE FUNCTION lti_rotate_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) RETURNS void
    LANGUAGE sql SET search_path = pg_catalog, public, pg_temp AS $$
    UPDATE public.lti_tool_keys SET retired_at = now() WHERE retired_at IS NULL;
    INSERT INTO public.lti_tool_keys (kid, private_pem, modulus, exponent) VALUES (p_kid, p_private_pem, p_modulus, p_exponent);
$$;

REVOKE ALL ON FUNCTION lti_signing_key(), lti_public_keys(), lti_add_key(text, text, text, text), lti_rotate_key(text, text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_signing_key(), lti_public_keys(), lti_add_key(text, text, text, text) TO portal_app;

-- Platforms: an issuer and the client id it gave the tool, with its endpoints, and the
-- deployments of the tool in it. Registered by the owner (portal lti add-platform) or an admin.
CREATE TABLE lti_platforms (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    issuer text NOT NULL CHECK (issuer ~ '^https?://[^\s]+$' AND length(issuer) <= 300),
    client_id text NOT NULL CHECK (length(client_id) BETWEEN 1 AND 200),
    auth_url text NOT NULL CHECK (auth_url ~ '^https?://[^\s]+$'),
    token_url text NOT NULL CHECK (token_url ~ '^https?://[^\s]+$'),
    jwks_url text NOT NULL CHECK (jwks_url ~ '^https?://[^\s]+$'),
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (issuer, client_id)
);
CREATE TABLE lti_deployments (
    platform_id bigint NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    deployment_id text NOT NULL CHECK (length(deployment_id) BETWEEN 1 AND 200),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (platform_id, deployment_id)
);
ALTER TABLE lti_platforms ENABLE ROW LEVEL SECURITY;
ALTER TABLE lti_deployments ENABLE ROW LEVEL SECURITY;
-- A launch is checked against the registrations before anyone is signed in: readable by all;
-- written by admins.
CREATE POLICY lti_platforms_read ON lti_platforms FOR SELECT USING (true);
CREATE POLICY lti_platforms_admin ON lti_platforms FOR INSERT TO portal_app WITH CHECK (app_role() = 'admin');
CREATE POLICY lti_deployments_read ON lti_deployments FOR SELECT USING (true);
CREATE POLICY lti_deployments_admin ON lti_deployments FOR INSERT TO portal_app WITH CHECK (app_role() = 'admin');
GRANT SELECT, INSERT ON lti_platforms, lti_deployments TO portal_app;

-- The owner's `portal lti` commands leave their mark in the audit log too.
CREATE POLICY audit_log_owner_lti ON audit_log FOR INSERT TO CURRENT_USER WITH CHECK (action LIKE 'lti.%');
