-- The admission checks, calling the one answer_outcome with the question's options and details.
-- Each refusal names its reason in the error's DETAIL (finished, overdue, question_gone,
-- not_in_session, answered, version_unknown, option_gone, items_changed), which AnswerRefusal
-- reads: the caller learns why from the database instead of judging first (online, live and
-- offline alike).
-- An answer made on an earlier published version (offline) has its option indexes mapped onto
-- today's options by id; a matching answer is taken only when the prompts are as they were, and
-- typed answers and points need no mapping.
CREATE OR REPLACE FUNCTION public.answers_admit()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz;
    me uuid;
    sess record;
    question record;
    response jsonb := NEW.response;
    earlier text[];
    current_ids text[];
    outcome record;
    typical_ms double precision;
    typical_samples integer;
BEGIN
    -- Two reads: the session, locked (so an answer to it waits for any other under way, and
    -- what is read next is read after it), with the caller and the server's time; then what
    -- was stored under this id, whether the question has an answer already, and the question.
    SELECT s.id, s.user_id, s.guest_key, s.mode, s.question_ids, s.started_at, s.deadline_at, s.finished_at,
           public.app_user_id() AS me, public.app_now() AS now_at
      INTO sess
    FROM public.study_sessions s WHERE s.id = NEW.session_id FOR UPDATE;
    me := sess.me;
    now_at := sess.now_at;
    IF NOT FOUND OR sess.user_id IS DISTINCT FROM me
       OR (sess.user_id IS NULL AND sess.guest_key IS DISTINCT FROM public.app_guest_key()) THEN
        RAISE EXCEPTION 'no such study session' USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT p.session_id AS prior_session, p.question_id AS prior_question, p.question_version AS prior_version, p.response AS prior_response,
           EXISTS (SELECT 1 FROM public.answers a WHERE a.session_id = NEW.session_id AND a.question_id = NEW.question_id) AS answered,
           q.id, q.type, q.options, q.correct, q.details, q.version, q.difficulty
      INTO question
    FROM (SELECT 1) AS one
    LEFT JOIN public.answers p ON p.id = NEW.id
    LEFT JOIN public.questions q ON q.id = NEW.question_id AND ((q.status = 'published' AND q.deleted_at IS NULL) OR public.app_role() = 'admin');
    -- The same id again is a replay when it is the same answer (nothing is stored, and the
    -- statement reports no row), and a conflict otherwise. An offline answer on an earlier
    -- version was stored with its options mapped onto today's, so it compares by version only.
    IF question.prior_session IS NOT NULL THEN
        IF question.prior_session = NEW.session_id AND question.prior_question = NEW.question_id AND question.prior_version = NEW.question_version
           AND (question.prior_response = NEW.response OR NEW.question_version < question.version) THEN
            RETURN NULL;
        END IF;
        RAISE EXCEPTION 'answer % is another answer already', NEW.id USING ERRCODE = 'unique_violation';
    END IF;
    IF sess.finished_at IS NOT NULL THEN
        RAISE EXCEPTION 'study session % has ended', sess.id USING ERRCODE = 'check_violation', DETAIL = 'finished';
    END IF;
    IF sess.deadline_at IS NOT NULL AND now_at > sess.deadline_at THEN
        RAISE EXCEPTION 'the time for this mock exam is over' USING ERRCODE = 'check_violation', DETAIL = 'overdue';
    END IF;
    -- A question withdrawn since says so, whether or not the session (made offline, when the
    -- device downloaded the exam) still holds it.
    IF question.id IS NULL THEN
        RAISE EXCEPTION 'the question is no longer published' USING ERRCODE = 'check_violation', DETAIL = 'question_gone';
    END IF;
    IF NOT (NEW.question_id = ANY (sess.question_ids)) THEN
        RAISE EXCEPTION 'the question is not part of the session' USING ERRCODE = 'check_violation', DETAIL = 'not_in_session';
    END IF;
    IF sess.mode <> 'mock' AND question.answered THEN
        RAISE EXCEPTION 'the question was answered already in this session' USING ERRCODE = 'check_violation', DETAIL = 'answered';
    END IF;
    IF NEW.question_version > question.version OR NEW.question_version < 1 THEN
        RAISE EXCEPTION 'version % of this question does not exist', NEW.question_version USING ERRCODE = 'check_violation', DETAIL = 'version_unknown';
    END IF;
    IF NEW.question_version < question.version THEN
        SELECT p.option_ids INTO earlier FROM public.published_option_ids(ARRAY[NEW.question_id], ARRAY[NEW.question_version]) AS p;
        IF earlier IS NULL THEN
            RAISE EXCEPTION 'version % of this question was never published', NEW.question_version USING ERRCODE = 'check_violation', DETAIL = 'version_unknown';
        END IF;
        current_ids := ARRAY(SELECT o.value->>'id' FROM jsonb_array_elements(question.options) WITH ORDINALITY AS o(value, n) ORDER BY o.n);
        IF jsonb_typeof(NEW.response) = 'array' THEN
            IF EXISTS (
                SELECT 1 FROM jsonb_array_elements(NEW.response) AS r(v)
                WHERE jsonb_typeof(r.v) <> 'number' OR (r.v #>> '{}')::numeric <> trunc((r.v #>> '{}')::numeric)
                   OR (r.v #>> '{}')::numeric < 0 OR (r.v #>> '{}')::numeric >= cardinality(earlier)
                   OR array_position(current_ids, earlier[(r.v #>> '{}')::integer + 1]) IS NULL) THEN
                RAISE EXCEPTION 'the question has changed since it was answered: a chosen option is gone' USING ERRCODE = 'check_violation', DETAIL = 'option_gone';
            END IF;
            SELECT coalesce(jsonb_agg(array_position(current_ids, earlier[(r.v #>> '{}')::integer + 1]) - 1 ORDER BY r.n), '[]'::jsonb) INTO response
            FROM jsonb_array_elements(NEW.response) WITH ORDINALITY AS r(v, n);
        ELSIF jsonb_typeof(NEW.response -> 'pairs') = 'array' AND earlier IS DISTINCT FROM current_ids THEN
            RAISE EXCEPTION 'the question has changed since it was answered: its options are not the same' USING ERRCODE = 'check_violation', DETAIL = 'items_changed';
        END IF;
    END IF;
    SELECT * INTO outcome FROM public.answer_outcome(question.type, question.correct, question.options, question.details, response);
    NEW.correct := outcome.correct;
    NEW.score := outcome.score;
    NEW.difficulty := question.difficulty;
    -- The rating is the database's alone (StudyStorageTests holds it): wrong is Again; right is
    -- Good, Hard when much slower than the student's typical time on right answers at this
    -- difficulty, Easy when much quicker on a card already in review — once five such answers
    -- make a typical time. Whatever rating the caller sent is not taken.
    IF NEW.user_id IS NULL THEN
        NEW.rating := NULL;
    ELSIF NOT NEW.correct THEN
        NEW.rating := 1;
    ELSE
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY recent.time_ms), count(*) INTO typical_ms, typical_samples
        FROM (SELECT a.time_ms FROM public.answers a
              WHERE a.user_id = NEW.user_id AND a.correct AND a.difficulty = question.difficulty
              ORDER BY a.answered_at DESC LIMIT 50) AS recent;
        NEW.rating := CASE
            WHEN typical_samples < 5 OR typical_ms IS NULL OR typical_ms <= 0 THEN 3
            WHEN NEW.time_ms > typical_ms * 2 THEN 2
            WHEN NEW.time_ms < typical_ms * 0.5
                 AND (SELECT c.state FROM public.review_cards c WHERE c.user_id = NEW.user_id AND c.question_id = NEW.question_id) = 'review' THEN 4
            ELSE 3 END;
    END IF;
    NEW.received_at := now_at;
    NEW.answered_at := least(greatest(NEW.answered_at, sess.started_at), now_at);
    RETURN NEW;
END
$function$;
ALTER FUNCTION answers_admit() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION answers_admit() FROM PUBLIC;
