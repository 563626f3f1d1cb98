-- Writes an event's results once its last answer has been shown: every participant ranked by
-- the board's points, equal points sharing a rank. True when this call wrote them.
CREATE OR REPLACE FUNCTION public.live_record_results(p_event uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    ev record;
BEGIN
    SELECT e.id, e.question_ids, e.seconds_per_question, e.pause_seconds, e.starts_at INTO ev
    FROM public.live_events e WHERE e.id = p_event AND e.ended_at IS NULL AND e.starts_at IS NOT NULL FOR UPDATE;
    IF NOT FOUND OR public.app_now() < ev.starts_at
       + make_interval(secs => cardinality(ev.question_ids) * (ev.seconds_per_question + ev.pause_seconds)) THEN
        RETURN false;
    END IF;
    UPDATE public.live_events SET ended_at = ev.starts_at
        + make_interval(secs => cardinality(ev.question_ids) * (ev.seconds_per_question + ev.pause_seconds))
    WHERE id = p_event;
    INSERT INTO public.event_results (event_id, participant_id, nickname, rank, points, correct)
    SELECT p_event, b.participant_id, b.nickname, rank() OVER (ORDER BY b.points DESC), b.points, b.correct
    FROM public.live_board(p_event) AS b;
    RETURN true;
END
$function$;
ALTER FUNCTION live_record_results(p_event uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION live_record_results(p_event uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION live_record_results(p_event uuid) TO portal_app;
