-- Read-aloud: a button on each question reads it with the browser's speech synthesis. A reader
-- turns it on in settings (users.reads_aloud), or a teacher gives it as an accommodation
-- (accommodations.reads_aloud). The session's user carries either (auth_resolve_session returns
-- it, hence its drop), and set_accommodation takes it (hence its drop).
ALTER TABLE users ADD COLUMN reads_aloud boolean NOT NULL DEFAULT false;
GRANT SELECT (reads_aloud), UPDATE (reads_aloud) ON users TO portal_app;
ALTER TABLE accommodations ADD COLUMN reads_aloud boolean NOT NULL DEFAULT false;
DROP FUNCTION IF EXISTS auth_resolve_session(text, timestamptz, interval, interval);
DROP FUNCTION IF EXISTS set_accommodation(uuid, numeric, integer, integer);
