-- The answering transaction, made cheap without giving up any of its checks.
--
-- 1. A student's own rows are judged by the owner's policy before anyone else's. Permissive
--    policies are joined with OR in descending order of their names, and each "who is asking"
--    helper runs once per statement only if its branch is reached: named *_teacher, the
--    teachers' policies came first, so every statement a student made on their sessions,
--    answers, cards and account ran app_students() (a query of classes and memberships, and
--    two more lookups of the session token inside it). Renamed *_of_students they come after
--    the owner's, which answers for a student's own rows at once.
ALTER POLICY answers_teacher ON answers RENAME TO answers_of_students;
ALTER POLICY review_cards_teacher ON review_cards RENAME TO review_cards_of_students;
ALTER POLICY study_sessions_teacher ON study_sessions RENAME TO study_sessions_of_students;
ALTER POLICY users_teacher ON users RENAME TO users_of_students;

-- 2. The difficulty an answer was given at, beside it: a student's typical time on right
--    answers at a difficulty (what the rating of a quick or slow right answer is judged by)
--    becomes a read of the last 50 entries of one index, where it joined every right answer of
--    the student's history to its question.
ALTER TABLE answers ADD COLUMN difficulty smallint;
UPDATE answers a SET difficulty = q.difficulty FROM questions q WHERE q.id = a.question_id;
CREATE INDEX answers_pace ON answers (user_id, difficulty, answered_at DESC) INCLUDE (time_ms)
    WHERE correct AND user_id IS NOT NULL;

-- 3. The admission check runs as portal_auth, whose policies on sessions, answers and questions
--    read every row, so its own reads cost no "who is asking" lookups; it therefore checks
--    itself that the session is the caller's (the same test as answers_insert's, which still
--    applies to the row after it) before it says anything about the session, and it admits only
--    published questions unless an admin is answering (as questions_read would have filtered).
CREATE OR REPLACE FUNCTION answers_admit() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    sess record;
    question record;
    response jsonb := NEW.response;
    earlier text[];
    current_ids text[];
    outcome record;
BEGIN
    SELECT s.id, s.user_id, s.guest_key, s.mode, s.question_ids, s.started_at, s.deadline_at, s.finished_at INTO sess
    FROM public.study_sessions s WHERE s.id = NEW.session_id FOR UPDATE;
    IF NOT FOUND OR sess.user_id IS DISTINCT FROM me
       OR (sess.user_id IS NULL AND sess.guest_key IS DISTINCT FROM public.app_guest_key()) THEN
        RAISE EXCEPTION 'no such study session' USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- The same id again: ON CONFLICT decides (a replay changes nothing).
    IF EXISTS (SELECT 1 FROM public.answers a WHERE a.id = NEW.id) THEN
        RETURN NEW;
    END IF;
    IF sess.finished_at IS NOT NULL THEN
        RAISE EXCEPTION 'study session % has ended', sess.id USING ERRCODE = 'check_violation';
    END IF;
    IF sess.deadline_at IS NOT NULL AND now_at > sess.deadline_at THEN
        RAISE EXCEPTION 'the time for this mock exam is over' USING ERRCODE = 'check_violation';
    END IF;
    IF NOT (NEW.question_id = ANY (sess.question_ids)) THEN
        RAISE EXCEPTION 'the question is not part of the session' USING ERRCODE = 'check_violation';
    END IF;
    IF sess.mode <> 'mock' AND EXISTS (SELECT 1 FROM public.answers a WHERE a.session_id = NEW.session_id AND a.question_id = NEW.question_id) THEN
        RAISE EXCEPTION 'the question was answered already in this session' USING ERRCODE = 'check_violation';
    END IF;
    SELECT q.type, q.options, q.correct, q.version, q.difficulty INTO question FROM public.questions q
    WHERE q.id = NEW.question_id AND ((q.status = 'published' AND q.deleted_at IS NULL) OR public.app_role() = 'admin');
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the question is no longer published' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.question_version > question.version OR NEW.question_version < 1 THEN
        RAISE EXCEPTION 'version % of this question does not exist', NEW.question_version USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.question_version < question.version THEN
        SELECT p.option_ids INTO earlier FROM public.published_option_ids(ARRAY[NEW.question_id], ARRAY[NEW.question_version]) AS p;
        IF earlier IS NULL THEN
            RAISE EXCEPTION 'version % of this question was never published', NEW.question_version USING ERRCODE = 'check_violation';
        END IF;
        current_ids := ARRAY(SELECT o.value->>'id' FROM jsonb_array_elements(question.options) WITH ORDINALITY AS o(value, n) ORDER BY o.n);
        IF jsonb_typeof(NEW.response) <> 'array' OR EXISTS (
            SELECT 1 FROM jsonb_array_elements(NEW.response) AS r(v)
            WHERE jsonb_typeof(r.v) <> 'number' OR (r.v #>> '{}')::numeric <> trunc((r.v #>> '{}')::numeric)
               OR (r.v #>> '{}')::numeric < 0 OR (r.v #>> '{}')::numeric >= cardinality(earlier)
               OR array_position(current_ids, earlier[(r.v #>> '{}')::integer + 1]) IS NULL) THEN
            RAISE EXCEPTION 'the question has changed since it was answered: a chosen option is gone' USING ERRCODE = 'check_violation';
        END IF;
        SELECT jsonb_agg(array_position(current_ids, earlier[(r.v #>> '{}')::integer + 1]) - 1 ORDER BY r.n) INTO response
        FROM jsonb_array_elements(NEW.response) WITH ORDINALITY AS r(v, n);
    END IF;
    SELECT * INTO outcome FROM public.answer_outcome(question.type, question.correct, jsonb_array_length(question.options), response);
    NEW.correct := outcome.correct;
    NEW.score := outcome.score;
    NEW.difficulty := question.difficulty;
    IF NEW.user_id IS NULL THEN
        NEW.rating := NULL;
    ELSIF NOT NEW.correct THEN
        NEW.rating := 1;
    ELSIF NEW.rating IS NULL OR NEW.rating = 1 THEN
        NEW.rating := 3;
    END IF;
    NEW.received_at := now_at;
    NEW.answered_at := least(greatest(NEW.answered_at, sess.started_at), now_at);
    RETURN NEW;
END
$$;

GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION answers_admit() OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION answers_admit() FROM PUBLIC;
