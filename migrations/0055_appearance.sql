-- The colour scheme an account chose for its pages: as its device prefers (the default), or
-- always light, or always dark. It comes with the session's user (auth_resolve_session returns
-- it, hence the drop: its result changes), and a change of it changes the pages kept for the
-- account, as any write of theirs does.
ALTER TABLE users ADD COLUMN color_scheme text NOT NULL DEFAULT 'device' CHECK (color_scheme IN ('device', 'light', 'dark'));
GRANT SELECT (color_scheme), UPDATE (color_scheme) ON users TO portal_app;

CREATE TRIGGER users_appearance_version BEFORE UPDATE OF color_scheme ON users
    FOR EACH ROW WHEN (OLD.color_scheme IS DISTINCT FROM NEW.color_scheme)
    EXECUTE FUNCTION users_visibility_version();

DROP FUNCTION auth_resolve_session(text, timestamptz, interval, interval);
