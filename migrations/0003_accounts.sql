-- Accounts and cookie sessions (DESIGN §5), under forced row-level security.
--
-- portal_app reads and changes only the signed-in user's own rows. What must happen before
-- anyone is signed in (registering, finding an account to log in, resolving a session cookie)
-- goes through a few SECURITY DEFINER functions owned by portal_auth, a role that cannot log in
-- and that the policies below let through; they take parameters and return only what the
-- caller needs.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'portal_auth') THEN
        CREATE ROLE portal_auth NOLOGIN NOSUPERUSER NOBYPASSRLS;
    END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END
$$;
-- The owner hands functions to portal_auth and may act as it (portal create-admin).
DO $$ BEGIN EXECUTE format('GRANT portal_auth TO %I', current_user); END $$;
GRANT USAGE ON SCHEMA public TO portal_auth;

CREATE TABLE users (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    username text NOT NULL CHECK (username ~ '^[^[:space:]/@:<>"'']{3,40}$'),
    display_name text NOT NULL CHECK (length(btrim(display_name)) BETWEEN 1 AND 80),
    password_hash text NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
    role text NOT NULL DEFAULT 'student' CHECK (role IN ('student', 'teacher', 'admin')),
    locale text NOT NULL DEFAULT 'en' CHECK (locale ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$'),
    time_zone text NOT NULL DEFAULT 'UTC' CHECK (length(time_zone) BETWEEN 1 AND 64),
    -- Pupils' privacy first: nobody appears on a leaderboard until they choose to.
    show_on_leaderboard boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    disabled_at timestamptz
);
CREATE UNIQUE INDEX users_username_unique ON users (lower(username));

CREATE TABLE auth_sessions (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- SHA-256 of the cookie's token: a stolen table cannot be replayed as cookies.
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    csrf_token text NOT NULL,
    created_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    user_agent text NOT NULL DEFAULT ''
);
CREATE INDEX auth_sessions_by_user ON auth_sessions (user_id);

ALTER TABLE users ENABLE ROW LEVEL SECURITY;
ALTER TABLE users FORCE ROW LEVEL SECURITY;
ALTER TABLE auth_sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE auth_sessions FORCE ROW LEVEL SECURITY;

CREATE POLICY users_self ON users FOR SELECT TO portal_app
    USING (id = app_user_id() OR app_role() = 'admin');
CREATE POLICY users_self_update ON users FOR UPDATE TO portal_app
    USING (id = app_user_id()) WITH CHECK (id = app_user_id());
CREATE POLICY users_auth ON users TO portal_auth USING (true) WITH CHECK (true);

CREATE POLICY sessions_self ON auth_sessions FOR SELECT TO portal_app
    USING (user_id = app_user_id() OR app_role() = 'admin');
CREATE POLICY sessions_self_delete ON auth_sessions FOR DELETE TO portal_app
    USING (user_id = app_user_id());
CREATE POLICY sessions_auth ON auth_sessions TO portal_auth USING (true) WITH CHECK (true);

-- portal_app may change only these columns of its own row; never its role or username.
GRANT SELECT ON users TO portal_app;
GRANT UPDATE (display_name, locale, time_zone, show_on_leaderboard, password_hash) ON users TO portal_app;
GRANT SELECT, DELETE ON auth_sessions TO portal_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON users, auth_sessions TO portal_auth;

-- Registering: always a student.
CREATE FUNCTION auth_register(p_username text, p_display_name text, p_password_hash text) RETURNS uuid
    LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    INSERT INTO users (username, display_name, password_hash) VALUES (p_username, p_display_name, p_password_hash)
    RETURNING id
$$;

-- Creating an account with any role: for `portal create-admin`, not granted to portal_app.
CREATE FUNCTION auth_create_user(p_username text, p_display_name text, p_password_hash text, p_role text) RETURNS uuid
    LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    INSERT INTO users (username, display_name, password_hash, role) VALUES (p_username, p_display_name, p_password_hash, p_role)
    ON CONFLICT (lower(username)) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role, disabled_at = NULL
    RETURNING id
$$;

-- What logging in needs to know about a username; nothing when there is no such account.
CREATE FUNCTION auth_find_login(p_username text)
    RETURNS TABLE (id uuid, password_hash text, disabled boolean)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT id, password_hash, disabled_at IS NOT NULL FROM users WHERE lower(username) = lower(p_username)
$$;

CREATE FUNCTION auth_create_session(p_user uuid, p_token_hash bytea, p_csrf text, p_now timestamptz, p_user_agent text) RETURNS uuid
    LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    INSERT INTO auth_sessions (user_id, token_hash, csrf_token, created_at, last_seen_at, user_agent)
    VALUES (p_user, p_token_hash, p_csrf, p_now, p_now, left(p_user_agent, 200))
    RETURNING id
$$;

-- Resolves a cookie's token hash to its user, ending the session when it has been idle too
-- long, is too old, or its account is disabled. Touches last_seen_at at most once a minute.
CREATE FUNCTION auth_lookup_session(p_token_hash bytea, p_now timestamptz, p_idle interval, p_absolute interval)
    RETURNS TABLE (session_id uuid, user_id uuid, role text, display_name text, csrf_token text, locale text, time_zone text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    hit record;
BEGIN
    SELECT s.id, s.user_id, s.created_at, s.last_seen_at, s.csrf_token, u.role, u.display_name, u.locale, u.time_zone, u.disabled_at
      INTO hit
      FROM auth_sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = p_token_hash;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF hit.disabled_at IS NOT NULL OR p_now - hit.last_seen_at > p_idle OR p_now - hit.created_at > p_absolute THEN
        DELETE FROM auth_sessions WHERE id = hit.id;
        RETURN;
    END IF;
    IF p_now - hit.last_seen_at > interval '1 minute' THEN
        UPDATE auth_sessions SET last_seen_at = p_now WHERE id = hit.id;
    END IF;
    RETURN QUERY SELECT hit.id, hit.user_id, hit.role, hit.display_name, hit.csrf_token, hit.locale, hit.time_zone;
END
$$;

-- A changed password or a disabled account ends every session of that account.
CREATE FUNCTION users_end_sessions() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    DELETE FROM auth_sessions WHERE user_id = NEW.id;
    RETURN NEW;
END
$$;
CREATE TRIGGER users_credentials_changed AFTER UPDATE OF password_hash, disabled_at ON users
    FOR EACH ROW WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash OR OLD.disabled_at IS DISTINCT FROM NEW.disabled_at)
    EXECUTE FUNCTION users_end_sessions();

-- Handing a function to a role needs that role to have CREATE on the schema, for a moment.
GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION auth_register(text, text, text) OWNER TO portal_auth;
ALTER FUNCTION auth_create_user(text, text, text, text) OWNER TO portal_auth;
ALTER FUNCTION auth_find_login(text) OWNER TO portal_auth;
ALTER FUNCTION auth_create_session(uuid, bytea, text, timestamptz, text) OWNER TO portal_auth;
ALTER FUNCTION auth_lookup_session(bytea, timestamptz, interval, interval) OWNER TO portal_auth;
ALTER FUNCTION users_end_sessions() OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;

REVOKE ALL ON FUNCTION auth_register(text, text, text), auth_create_user(text, text, text, text), auth_find_login(text),
    auth_create_session(uuid, bytea, text, timestamptz, text), auth_lookup_session(bytea, timestamptz, interval, interval),
    users_end_sessions() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_register(text, text, text), auth_find_login(text),
    auth_create_session(uuid, bytea, text, timestamptz, text), auth_lookup_session(bytea, timestamptz, interval, interval)
    TO portal_app;
