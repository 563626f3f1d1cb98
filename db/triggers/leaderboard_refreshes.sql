-- Every trigger of leaderboard_refreshes: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('leaderboard_refreshes');

-- The leaderboards were refreshed: every instance drops its kept boards. (notify_leaderboard)
CREATE TRIGGER leaderboard_refreshes_notify AFTER INSERT ON public.leaderboard_refreshes
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.notify_leaderboard();
