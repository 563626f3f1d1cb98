CREATE OR REPLACE FUNCTION public.leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer)
 RETURNS TABLE(place bigint, rank bigint, display_name text, points bigint, sessions bigint, answered bigint, correct bigint, is_viewer boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT e.place, e.rank, e.display_name, e.points, e.sessions, e.answered, e.correct,
           coalesce(e.user_id = (SELECT public.app_user_id()), false)
    FROM public.leaderboard_entries e
    WHERE e.exam_id = p_exam AND e.period = p_period
      AND e.place > greatest(p_offset, 0) AND e.place <= greatest(p_offset, 0) + least(greatest(p_limit, 0), 100)
    ORDER BY e.place
$function$;
ALTER FUNCTION leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer) OWNER TO portal_leaderboard;
REVOKE ALL ON FUNCTION leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer) TO portal_app;
