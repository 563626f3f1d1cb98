-- A launch inside an LMS's frame: the frame cannot keep the portal's cookie (it is another
-- site's frame, and some browsers drop such cookies altogether), so the launch's session is
-- handed over to a new window. The frame shows a link with a random token; opening it takes
-- the session (re-keyed to the window's own new cookie), once, within five minutes, in the same
-- browser (the hash of its user agent and address). Only the token's hash is kept.
CREATE TABLE lti_handoffs (
    token_hash bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    session_hash bytea NOT NULL CHECK (octet_length(session_hash) = 32),
    browser_hash bytea NOT NULL CHECK (octet_length(browser_hash) = 32),
    location text NOT NULL CHECK (location ~ '^/' AND length(location) <= 2000),
    created_at timestamptz NOT NULL,
    used_at timestamptz
);
CREATE INDEX lti_handoffs_by_age ON lti_handoffs (created_at);
ALTER TABLE lti_handoffs ENABLE ROW LEVEL SECURITY;
ALTER TABLE lti_handoffs FORCE ROW LEVEL SECURITY;
CREATE POLICY lti_handoffs_auth ON lti_handoffs TO portal_auth USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON lti_handoffs TO portal_auth;

-- Offers the caller's own current session (the one its cookie token names) to a new window:
-- the app names neither a session nor a user.
CREATE FUNCTION lti_offer_handoff(p_handoff text, p_browser bytea, p_location text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    current_hash bytea := sha256(convert_to(coalesce(current_setting('app.session_token', true), ''), 'UTF8'));
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.auth_sessions s WHERE s.token_hash = current_hash) THEN
        RETURN false;
    END IF;
    INSERT INTO public.lti_handoffs (token_hash, session_hash, browser_hash, location, created_at)
    VALUES (sha256(convert_to(p_handoff, 'UTF8')), current_hash, p_browser, p_location, public.app_now());
    RETURN true;
END
$$;

-- Takes a handoff: its session now answers to `p_token` (the new window's cookie) and the
-- location to open comes back; NULL when the token is unknown, used, older than five minutes,
-- from another browser, or its session has ended.
CREATE FUNCTION lti_take_handoff(p_handoff text, p_browser bytea, p_token text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    taken record;
BEGIN
    DELETE FROM public.lti_handoffs WHERE token_hash IN (
        SELECT h.token_hash FROM public.lti_handoffs h WHERE h.created_at < now_at - interval '1 day' LIMIT 20);
    UPDATE public.lti_handoffs h SET used_at = now_at
    WHERE h.token_hash = sha256(convert_to(p_handoff, 'UTF8')) AND h.used_at IS NULL
    RETURNING h.* INTO taken;
    IF NOT FOUND OR taken.created_at < now_at - interval '5 minutes' OR taken.browser_hash <> p_browser THEN
        RETURN NULL;
    END IF;
    UPDATE public.auth_sessions s SET token_hash = sha256(convert_to(p_token, 'UTF8')), last_seen_at = now_at
    WHERE s.token_hash = taken.session_hash;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    RETURN taken.location;
END
$$;

GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION lti_take_handoff(text, bytea, text) OWNER TO portal_auth;
ALTER FUNCTION lti_offer_handoff(text, bytea, text) OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION lti_take_handoff(text, bytea, text), lti_offer_handoff(text, bytea, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_take_handoff(text, bytea, text), lti_offer_handoff(text, bytea, text) TO portal_app;
