-- An event's board from its stored answers: every participant with the points their right
-- answers earn plus the run bonus (live_answer_run_bonus; a wrong or missing answer ends the
-- run), and where their run stands (its length and the last question answered right), so a
-- live scoreboard lost with Redis can be rebuilt exactly. Public like the board itself: nicknames and points.
CREATE OR REPLACE FUNCTION public.live_board(p_event uuid)
 RETURNS TABLE(participant_id uuid, nickname text, points integer, correct integer, streak integer, last_right integer)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    WITH rights AS (
        -- Right answers at consecutive questions share an island: index minus position.
        SELECT a.participant_id, a.question_index, a.base_points,
               a.question_index - row_number() OVER (PARTITION BY a.participant_id ORDER BY a.question_index) AS island
        FROM public.live_answers a WHERE a.event_id = p_event AND a.correct
    ), runs AS (
        SELECT r.participant_id, r.question_index, r.base_points,
               row_number() OVER (PARTITION BY r.participant_id, r.island ORDER BY r.question_index) AS run
        FROM rights r
    ), totals AS (
        SELECT r.participant_id, sum(r.base_points + public.live_answer_run_bonus(r.run::integer))::integer AS points, count(*)::integer AS correct,
               (array_agg(r.run ORDER BY r.question_index DESC))[1]::integer AS streak, max(r.question_index)::integer AS last_right
        FROM runs r GROUP BY r.participant_id
    )
    SELECT p.id, p.nickname, COALESCE(t.points, 0), COALESCE(t.correct, 0), COALESCE(t.streak, 0), t.last_right
    FROM public.live_participants p LEFT JOIN totals t ON t.participant_id = p.id
    WHERE p.event_id = p_event
$function$;
ALTER FUNCTION live_board(p_event uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION live_board(p_event uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION live_board(p_event uuid) TO portal_app;
