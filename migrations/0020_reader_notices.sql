-- A reader's data version is announced as it changes (channel portal_readers, `<user id>:<version>`),
-- so each instance can keep a student's version in memory and serve their own pages without
-- reading it: the dashboard, a finished session's results, a question page. A notice is sent
-- at commit, once per transaction and user however many rows changed.

CREATE OR REPLACE FUNCTION data_version_bump() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    stamp bigint := pg_catalog.pg_current_xact_id()::text::bigint;
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.user_id IS NOT NULL THEN
        UPDATE public.users SET data_version = stamp WHERE id = OLD.user_id AND data_version <> stamp;
        IF FOUND THEN
            PERFORM pg_catalog.pg_notify('portal_readers', OLD.user_id::text || ':' || stamp);
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.user_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
        UPDATE public.users SET data_version = stamp WHERE id = NEW.user_id AND data_version <> stamp;
        IF FOUND THEN
            PERFORM pg_catalog.pg_notify('portal_readers', NEW.user_id::text || ':' || stamp);
        END IF;
    END IF;
    RETURN NULL;
END
$$;

-- Whether a student appears on leaderboards is part of what their own leaderboard page shows:
-- changing it changes their data version too (and says so), like any other write of theirs.
CREATE FUNCTION users_visibility_version() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    NEW.data_version := pg_catalog.pg_current_xact_id()::text::bigint;
    PERFORM pg_catalog.pg_notify('portal_readers', NEW.id::text || ':' || NEW.data_version);
    RETURN NEW;
END
$$;

CREATE TRIGGER users_visibility_version BEFORE UPDATE OF show_on_leaderboard ON users
    FOR EACH ROW WHEN (OLD.show_on_leaderboard IS DISTINCT FROM NEW.show_on_leaderboard)
    EXECUTE FUNCTION users_visibility_version();
