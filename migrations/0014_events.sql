-- Events every instance listens for (DESIGN §4): what an instance keeps in memory is dropped
-- the moment the database changes under it, on every instance at once.
--
--   portal_content      the catalogue changed (regions, exams, domains; a question's edit
--                       reaches its exam's content_updated_at): payload the exam id, or ''
--   portal_sessions     a signed-in session ended ('session:' || id) or an account changed
--                       what a session carries ('user:' || id)
--   portal_leaderboard  the leaderboard was refreshed
--
-- NOTIFY is sent at commit and dropped with a rollback; identical notices of one transaction
-- arrive once. None of these is on the path of an answer: an answer's commit never waits on
-- the notification queue's lock.

CREATE FUNCTION notify_content() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    PERFORM pg_notify('portal_content', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER regions_notify AFTER INSERT OR UPDATE OR DELETE ON regions
    FOR EACH STATEMENT EXECUTE FUNCTION notify_content();
CREATE TRIGGER exams_notify AFTER INSERT OR UPDATE OR DELETE ON exams
    FOR EACH STATEMENT EXECUTE FUNCTION notify_content();
CREATE TRIGGER domains_notify AFTER INSERT OR UPDATE OR DELETE ON domains
    FOR EACH STATEMENT EXECUTE FUNCTION notify_content();

CREATE FUNCTION notify_session_ended() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    PERFORM pg_notify('portal_sessions', 'session:' || OLD.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER auth_sessions_notify AFTER DELETE ON auth_sessions
    FOR EACH ROW EXECUTE FUNCTION notify_session_ended();

CREATE FUNCTION notify_account_changed() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    PERFORM pg_notify('portal_sessions', 'user:' || NEW.id);
    RETURN NULL;
END
$$;

-- What a resolved session carries, and what ends it.
CREATE TRIGGER users_notify AFTER UPDATE ON users
    FOR EACH ROW
    WHEN ((OLD.role, OLD.display_name, OLD.locale, OLD.time_zone, OLD.disabled_at, OLD.password_hash)
          IS DISTINCT FROM (NEW.role, NEW.display_name, NEW.locale, NEW.time_zone, NEW.disabled_at, NEW.password_hash))
    EXECUTE FUNCTION notify_account_changed();

CREATE FUNCTION notify_leaderboard() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    PERFORM pg_notify('portal_leaderboard', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER leaderboard_refreshes_notify AFTER INSERT ON leaderboard_refreshes
    FOR EACH STATEMENT EXECUTE FUNCTION notify_leaderboard();
