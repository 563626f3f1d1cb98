-- A reader of Japanese may hide the readings over words (ruby, furigana) on every page. It comes
-- with the session's user like the colour scheme (auth_resolve_session returns it, hence the
-- drop), and a change of it changes the pages kept for the account (db/triggers/users.sql).
ALTER TABLE users ADD COLUMN hides_readings boolean NOT NULL DEFAULT false;
GRANT SELECT (hides_readings), UPDATE (hides_readings) ON users TO portal_app;

DROP FUNCTION IF EXISTS auth_resolve_session(text, timestamptz, interval, interval);
