-- Admits a live event's answer and judges it: only the open question takes answers, until its
-- bell. The moment that decides is when the server received the answer (the caller's
-- answered_at), believed only within the second before the database's own clock (the trip from
-- the server to here): an answer sent after the bell is refused however fast it arrives, and no
-- caller can date one earlier than that. The answer's correctness, time and base points are
-- computed here, never taken from the client or the server's handler. Each refusal names its
-- reason in the error's DETAIL (closed, question_gone), as answers_admit's do.
CREATE OR REPLACE FUNCTION public.live_answers_admit()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    received timestamptz;
    ev record;
    question record;
    opened timestamptz;
    outcome record;
    limit_ms integer;
BEGIN
    SELECT e.question_ids, e.seconds_per_question, e.pause_seconds, e.starts_at, e.ended_at INTO ev
    FROM public.live_events e WHERE e.id = NEW.event_id;
    IF NOT FOUND OR ev.starts_at IS NULL OR ev.ended_at IS NOT NULL
       OR NEW.question_index >= cardinality(ev.question_ids) OR ev.question_ids[NEW.question_index + 1] <> NEW.question_id THEN
        RAISE EXCEPTION 'that question is not open' USING ERRCODE = 'check_violation', DETAIL = 'closed';
    END IF;
    opened := ev.starts_at + make_interval(secs => NEW.question_index * (ev.seconds_per_question + ev.pause_seconds));
    received := least(now_at, greatest(coalesce(NEW.answered_at, now_at), now_at - interval '1 second'));
    IF received < opened OR received >= opened + make_interval(secs => ev.seconds_per_question) THEN
        RAISE EXCEPTION 'that question is not open' USING ERRCODE = 'check_violation', DETAIL = 'closed';
    END IF;
    SELECT q.type, q.options, q.correct, q.details, q.version INTO question FROM public.questions q WHERE q.id = NEW.question_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the question is no longer published' USING ERRCODE = 'check_violation', DETAIL = 'question_gone';
    END IF;
    SELECT * INTO outcome FROM public.answer_outcome(question.type, question.correct, question.options, question.details, NEW.response);
    NEW.correct := outcome.correct;
    NEW.question_version := question.version;
    NEW.time_ms := least(greatest(0, floor(extract(epoch FROM received - opened) * 1000)), ev.seconds_per_question * 1000)::integer;
    -- 1000 × (1 − (t/L)/2) in whole numbers, halves up: 1000 at once, 500 at the bell.
    limit_ms := ev.seconds_per_question * 1000;
    NEW.base_points := CASE WHEN NEW.correct THEN (2000 * limit_ms - 1000 * NEW.time_ms + limit_ms) / (2 * limit_ms) ELSE 0 END;
    NEW.answered_at := received;
    RETURN NEW;
END
$function$;
