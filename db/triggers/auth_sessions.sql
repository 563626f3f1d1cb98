-- Every trigger of auth_sessions: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('auth_sessions');

-- A signed-in session ended: every instance forgets it at once. (notify_session_ended)
CREATE TRIGGER auth_sessions_notify AFTER DELETE ON public.auth_sessions
    FOR EACH ROW
    EXECUTE FUNCTION public.notify_session_ended();
