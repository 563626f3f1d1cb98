-- A student's day is their own from the first visit: the zone a browser names at registration or
-- sign-in, or that the student chose, is confirmed; a zone never confirmed (the UTC an account
-- starts with) is asked once on the dashboard instead of silently standing. Confirming it is a
-- change of the student's pages, as any setting of theirs is. Accounts that chose a zone before
-- this are confirmed.
ALTER TABLE users ADD COLUMN time_zone_confirmed boolean NOT NULL DEFAULT false;
UPDATE users SET time_zone_confirmed = true WHERE time_zone <> 'UTC';
GRANT SELECT (time_zone_confirmed), UPDATE (time_zone_confirmed) ON users TO portal_app;

CREATE TRIGGER users_zone_confirmed_version BEFORE UPDATE OF time_zone_confirmed ON users
    FOR EACH ROW WHEN (OLD.time_zone_confirmed IS DISTINCT FROM NEW.time_zone_confirmed)
    EXECUTE FUNCTION users_visibility_version();

-- Registering takes the zone the form sent (the browser's, or the one chosen in its list).
DROP FUNCTION auth_register(text, text, text, text, text, text);
