CREATE OR REPLACE FUNCTION public.leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer)
 RETURNS TABLE(place bigint, rank bigint, display_name text, points bigint, sessions bigint, answered bigint, correct bigint, is_viewer boolean)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
    mine bigint;
    radius integer := least(greatest(p_radius, 0), 10);
BEGIN
    IF me IS NULL THEN
        RETURN;
    END IF;
    SELECT m.place INTO mine FROM public.leaderboard_entries m
    WHERE m.exam_id = p_exam AND m.period = p_period AND m.user_id = me;
    IF mine IS NULL THEN
        RETURN;
    END IF;
    RETURN QUERY
        SELECT e.place, e.rank, e.display_name, e.points, e.sessions, e.answered, e.correct, e.user_id = me
        FROM public.leaderboard_entries e
        WHERE e.exam_id = p_exam AND e.period = p_period AND e.place BETWEEN mine - radius AND mine + radius
        ORDER BY e.place;
END
$function$;
ALTER FUNCTION leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer) OWNER TO portal_leaderboard;
REVOKE ALL ON FUNCTION leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer) TO portal_app;
