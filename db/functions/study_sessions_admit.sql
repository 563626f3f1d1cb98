-- A new session, as before, its mock exam deadline with the student's accommodation (read as
-- the caller: their own row; a session for anyone else is refused by its policy after this).
-- A mock shorter than the whole exam gets the exam's time in proportion to its questions, an
-- assignment with a time limit of its own that limit; a student has one running mock exam of
-- an exam at a time.
CREATE OR REPLACE FUNCTION public.study_sessions_admit()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    limit_seconds integer;
    full_count integer;
    usable integer;
    accommodation record;
BEGIN
    IF NEW.finished_at IS NOT NULL OR NEW.score_correct IS NOT NULL OR NEW.score_percent IS NOT NULL OR NEW.passed IS NOT NULL THEN
        RAISE EXCEPTION 'a study session begins unfinished and unscored' USING ERRCODE = 'check_violation';
    END IF;
    NEW.flagged := '{}';
    SELECT e.time_limit_s, e.question_count INTO limit_seconds, full_count FROM public.exams e WHERE e.id = NEW.exam_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no such exam' USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF NEW.started_at > now_at + interval '5 minutes' THEN
        RAISE EXCEPTION 'a study session cannot begin in the future' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.mode = 'mock' THEN
        IF NEW.started_at < now_at - interval '5 minutes' THEN
            RAISE EXCEPTION 'a mock exam begins now' USING ERRCODE = 'check_violation';
        END IF;
        IF cardinality(NEW.question_ids) < full_count THEN
            limit_seconds := ((limit_seconds::bigint * cardinality(NEW.question_ids) + full_count - 1) / full_count)::integer;
        END IF;
        -- An assignment's own time limit stands instead of the exam's.
        limit_seconds := coalesce(public.share_link_time_limit(NEW.share_link_id), limit_seconds);
        SELECT a.time_multiplier, a.extra_minutes INTO accommodation FROM public.accommodations a WHERE a.student_id = NEW.user_id;
        IF FOUND THEN
            limit_seconds := (round(limit_seconds * accommodation.time_multiplier) + 60 * accommodation.extra_minutes)::integer;
        END IF;
        NEW.deadline_at := NEW.started_at + make_interval(secs => limit_seconds);
        -- One running mock exam per student (or guest) and exam: the app asks before it ends
        -- the running one (study_session_set_aside); two tabs starting at once wait here in turn.
        PERFORM pg_advisory_xact_lock(hashtextextended(
            'mock|' || coalesce(NEW.user_id::text, encode(NEW.guest_key, 'hex'), '') || '|' || NEW.exam_id::text, 0));
        IF EXISTS (
            SELECT 1 FROM public.study_sessions s
            WHERE s.exam_id = NEW.exam_id AND s.mode = 'mock' AND s.finished_at IS NULL AND s.deadline_at > now_at
              AND ((NEW.user_id IS NOT NULL AND s.user_id = NEW.user_id) OR (NEW.user_id IS NULL AND s.guest_key = NEW.guest_key))) THEN
            RAISE EXCEPTION 'a mock exam of this exam is already running' USING ERRCODE = 'unique_violation';
        END IF;
    ELSE
        NEW.deadline_at := NULL;
    END IF;
    SELECT count(DISTINCT q.id) INTO usable
    FROM unnest(NEW.question_ids) AS item(id)
    JOIN public.questions q ON q.id = item.id AND q.status = 'published' AND q.deleted_at IS NULL AND (NEW.mode = 'mock' OR NOT q.exam_only)
    JOIN public.domains d ON d.id = q.domain_id AND d.exam_id = NEW.exam_id;
    IF usable <> cardinality(NEW.question_ids) THEN
        RAISE EXCEPTION 'a study session holds only published questions of its exam, each once' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.share_link_id IS NOT NULL AND NOT public.share_link_admits(NEW.share_link_id, NEW.exam_id, NEW.mode) THEN
        RAISE EXCEPTION 'the share link does not offer this session' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$function$;
