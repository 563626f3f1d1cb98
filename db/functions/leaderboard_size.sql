CREATE OR REPLACE FUNCTION public.leaderboard_size(p_exam bigint, p_period text)
 RETURNS bigint
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    -- Places run 1…n without gaps, so the last place is the count: one index probe.
    SELECT coalesce(max(e.place), 0) FROM public.leaderboard_entries e WHERE e.exam_id = p_exam AND e.period = p_period
$function$;
ALTER FUNCTION leaderboard_size(p_exam bigint, p_period text) OWNER TO portal_leaderboard;
REVOKE ALL ON FUNCTION leaderboard_size(p_exam bigint, p_period text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION leaderboard_size(p_exam bigint, p_period text) TO portal_app;
