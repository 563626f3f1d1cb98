CREATE OR REPLACE FUNCTION public.leaderboard_refresh(p_every interval, p_instance text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET statement_timeout TO '10min'
AS $function$
DECLARE
    started timestamptz := clock_timestamp();
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('study-portal leaderboard refresh')) THEN
        RETURN false;
    END IF;
    IF EXISTS (SELECT 1 FROM public.leaderboard_refreshes r WHERE r.refreshed_at > clock_timestamp() - p_every) THEN
        RETURN false;
    END IF;
    REFRESH MATERIALIZED VIEW CONCURRENTLY public.leaderboard_entries;
    -- Fresh statistics, so a student's own row is found through the key, not by a scan.
    ANALYZE public.leaderboard_entries;
    INSERT INTO public.leaderboard_refreshes (refreshed_at, duration_ms, entries, instance)
    VALUES (clock_timestamp(), (extract(epoch FROM clock_timestamp() - started) * 1000)::integer,
            (SELECT count(*) FROM public.leaderboard_entries), left(p_instance, 100));
    RETURN true;
END
$function$;
ALTER FUNCTION leaderboard_refresh(p_every interval, p_instance text) OWNER TO portal_leaderboard;
REVOKE ALL ON FUNCTION leaderboard_refresh(p_every interval, p_instance text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION leaderboard_refresh(p_every interval, p_instance text) TO portal_app;
