-- Settings for deployment behind a connection pooler (DESIGN §11).
--
-- A pooler in transaction mode (PgBouncer) refuses startup `options` and hands each
-- transaction whichever server connection is free, so nothing may rest on a session's
-- settings. What every session needs is set here as the roles' own defaults in this database,
-- which every server connection a pooler opens picks up: ISO dates in UTC, and for the app
-- role the timeouts that keep one stuck statement or lock from holding a page worker.
--
-- To change a timeout in production: ALTER ROLE portal_app IN DATABASE <db> SET
-- statement_timeout = '…' (see deploy/README.md).

DO $$
DECLARE
    setting text;
BEGIN
    FOREACH setting IN ARRAY ARRAY[
        'DateStyle = ''ISO, YMD''', 'TimeZone = ''UTC''', 'IntervalStyle = ''iso_8601''', 'client_min_messages = ''warning''']
    LOOP
        EXECUTE format('ALTER ROLE portal_app IN DATABASE %I SET %s', current_database(), setting);
        EXECUTE format('ALTER ROLE %I IN DATABASE %I SET %s', current_user, current_database(), setting);
    END LOOP;
    -- A statement that runs for 15 seconds, or waits 3 seconds for a lock, is given up: the
    -- request answers 503 and the worker is free for the next one.
    EXECUTE format('ALTER ROLE portal_app IN DATABASE %I SET statement_timeout = ''15s''', current_database());
    EXECUTE format('ALTER ROLE portal_app IN DATABASE %I SET lock_timeout = ''3s''', current_database());
    EXECUTE format('ALTER ROLE portal_app IN DATABASE %I SET idle_in_transaction_session_timeout = ''60s''', current_database());
END
$$;

-- The leaderboard's refresh rebuilds the whole view (seconds over a million answers): it runs
-- with its own limit, not the request's.
ALTER FUNCTION leaderboard_refresh(interval, text) SET statement_timeout = '10min';
