--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: pg_trgm; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;


--
-- Name: EXTENSION pg_trgm; Type: COMMENT; Schema: -; Owner: 
--

COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';


--
-- Name: account_erase(uuid, uuid, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.account_erase(p_user uuid, p_actor uuid, p_by text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    account record;
    anonymous uuid := gen_random_uuid();
BEGIN
    SELECT u.id, u.username, u.role INTO account FROM public.users u WHERE u.id = p_user FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    UPDATE public.study_sessions SET user_id = NULL, anonymous_key = anonymous WHERE user_id = p_user;
    UPDATE public.answers SET user_id = NULL, answered_at = received_at WHERE user_id = p_user;
    UPDATE public.audit_log SET target = 'a deleted account' WHERE target = account.username;
    UPDATE public.audit_log SET actor_name = 'a deleted account' WHERE actor_id = p_user;
    DELETE FROM public.users WHERE id = p_user;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT now_at, a.id, coalesce(a.display_name, 'the account itself'), 'account.deleted', '',
           pg_catalog.jsonb_build_object('by', p_by, 'role', account.role)
    FROM (SELECT 1) one LEFT JOIN public.users a ON a.id = p_actor;
END
$$;


ALTER FUNCTION public.account_erase(p_user uuid, p_actor uuid, p_by text) OWNER TO portal_auth;

--
-- Name: admin_delete_account(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.admin_delete_account(p_user uuid) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL OR public.app_role() <> 'admin' OR p_user = me OR NOT EXISTS (SELECT FROM public.users u WHERE u.id = p_user) THEN
        RETURN false;
    END IF;
    PERFORM public.account_erase(p_user, me, 'admin');
    RETURN true;
END
$$;


ALTER FUNCTION public.admin_delete_account(p_user uuid) OWNER TO portal_auth;

--
-- Name: admin_set_account(uuid, text, boolean); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.admin_set_account(p_user uuid, p_role text, p_disabled boolean) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
    before record;
BEGIN
    IF me IS NULL OR public.app_role() <> 'admin' THEN
        RAISE EXCEPTION 'only an admin manages accounts' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_role IS NULL OR p_role NOT IN ('student', 'teacher', 'admin') OR p_disabled IS NULL THEN
        RAISE EXCEPTION 'a role is student, teacher or admin' USING ERRCODE = 'check_violation';
    END IF;
    IF p_user = me THEN
        RAISE EXCEPTION 'an admin does not change their own role or disable themselves' USING ERRCODE = 'check_violation';
    END IF;
    SELECT u.username, u.role, u.disabled_at IS NOT NULL AS disabled INTO before
    FROM public.users u WHERE u.id = p_user FOR UPDATE;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    IF before.role = p_role AND before.disabled = p_disabled THEN
        RETURN true;
    END IF;
    UPDATE public.users
    SET role = p_role, disabled_at = CASE WHEN p_disabled THEN COALESCE(disabled_at, public.app_now()) END
    WHERE id = p_user;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT public.app_now(), me, u.display_name, 'account.change', before.username,
           pg_catalog.jsonb_build_object('role_before', before.role, 'role', p_role,
                                         'disabled_before', before.disabled, 'disabled', p_disabled)
    FROM public.users u WHERE u.id = me;
    RETURN true;
END
$$;


ALTER FUNCTION public.admin_set_account(p_user uuid, p_role text, p_disabled boolean) OWNER TO portal_auth;

--
-- Name: answer_outcome(text, jsonb, jsonb, jsonb, jsonb); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.answer_outcome(p_kind text, p_key jsonb, p_options jsonb, p_details jsonb, p_response jsonb, OUT correct boolean, OUT score double precision) RETURNS record
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    shape text;
    picks integer[] := '{}';
    answer_key integer[];
    item jsonb;
    number_value numeric;
    bound integer;
    right_picks integer;
    wrong_picks integer;
    longest integer := 0;
    positions integer[];
    best integer[];
    i integer;
    j integer;
    typed text;
    gap_right boolean;
    gap_score double precision;
    x double precision;
    y double precision;
    picked integer;
BEGIN
    -- The response's shape, and its numbers as whole ones.
    IF jsonb_typeof(p_response) = 'array' THEN
        shape := 'indexes';
        item := p_response;
    ELSIF jsonb_typeof(p_response) = 'object' AND (SELECT count(*) FROM jsonb_object_keys(p_response)) = 1 THEN
        IF jsonb_typeof(p_response -> 'pairs') = 'array' THEN
            shape := 'pairs';
            item := p_response -> 'pairs';
        ELSIF jsonb_typeof(p_response -> 'text') = 'string' THEN
            shape := 'text';
        ELSIF jsonb_typeof(p_response -> 'point') = 'array' AND jsonb_array_length(p_response -> 'point') = 2
              AND jsonb_typeof(p_response -> 'point' -> 0) = 'number' AND jsonb_typeof(p_response -> 'point' -> 1) = 'number' THEN
            shape := 'point';
        ELSIF jsonb_typeof(p_response -> 'gaps') = 'array'
              AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_response -> 'gaps') AS v WHERE jsonb_typeof(v) <> 'string') THEN
            shape := 'gaps';
        END IF;
    END IF;
    IF shape IS NULL THEN
        RAISE EXCEPTION 'the response is not an answer to this question (wrongShape)' USING ERRCODE = '22023';
    END IF;
    IF shape IN ('indexes', 'pairs') THEN
        IF EXISTS (SELECT 1 FROM jsonb_array_elements(item) AS v WHERE jsonb_typeof(v) <> 'number') THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongShape)' USING ERRCODE = '22023';
        END IF;
        IF EXISTS (SELECT 1 FROM jsonb_array_elements_text(item) AS v WHERE v::numeric <> trunc(v::numeric)) THEN
            RAISE EXCEPTION 'the response is not an answer to this question (outOfRange)' USING ERRCODE = '22023';
        END IF;
    END IF;
    SELECT array_agg(k::integer ORDER BY n) INTO answer_key FROM jsonb_array_elements_text(p_key) WITH ORDINALITY AS x(k, n);

    -- Which shape the kind takes; option indexes are checked for range and repeats in order.
    IF p_kind IN ('single-choice', 'code-snippet', 'multi-choice', 'ordering') OR (p_kind = 'hotspot' AND shape = 'indexes') THEN
        IF shape <> 'indexes' THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongShape)' USING ERRCODE = '22023';
        END IF;
        IF jsonb_array_length(item) = 0 THEN
            RAISE EXCEPTION 'the response is not an answer to this question (empty)' USING ERRCODE = '22023';
        END IF;
        bound := CASE WHEN p_kind = 'ordering' THEN cardinality(answer_key) ELSE jsonb_array_length(p_options) END;
        FOR item IN SELECT * FROM jsonb_array_elements(p_response) LOOP
            number_value := (item #>> '{}')::numeric;
            IF number_value < 0 OR number_value >= bound THEN
                RAISE EXCEPTION 'the response is not an answer to this question (outOfRange)' USING ERRCODE = '22023';
            END IF;
            IF number_value::integer = ANY (picks) THEN
                RAISE EXCEPTION 'the response is not an answer to this question (duplicate)' USING ERRCODE = '22023';
            END IF;
            picks := picks || number_value::integer;
        END LOOP;
    END IF;

    IF p_kind IN ('single-choice', 'code-snippet') THEN
        IF cardinality(picks) <> 1 THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongCount)' USING ERRCODE = '22023';
        END IF;
        -- Any option of the key is fully right (a bank may mark several as equally right).
        correct := picks[1] = ANY (answer_key);
        score := CASE WHEN correct THEN 1 ELSE 0 END;
    ELSIF p_kind = 'multi-choice' THEN
        SELECT count(*) FILTER (WHERE p = ANY (answer_key)) INTO right_picks FROM unnest(picks) AS p;
        wrong_picks := cardinality(picks) - right_picks;
        correct := right_picks = (SELECT count(DISTINCT k) FROM unnest(answer_key) AS k) AND wrong_picks = 0;
        score := greatest(0, right_picks - wrong_picks)::double precision / (SELECT count(DISTINCT k) FROM unnest(answer_key) AS k);
    ELSIF p_kind = 'ordering' THEN
        IF cardinality(picks) <> cardinality(answer_key) THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongCount)' USING ERRCODE = '22023';
        END IF;
        correct := picks = answer_key;
        -- The longest run of picks in the key's relative order (n ≤ 10: the quadratic way).
        positions := ARRAY(SELECT array_position(answer_key, p) FROM unnest(picks) WITH ORDINALITY AS x(p, n) ORDER BY n);
        best := array_fill(1, ARRAY[cardinality(positions)]);
        FOR i IN 1 .. cardinality(positions) LOOP
            FOR j IN 1 .. i - 1 LOOP
                IF positions[j] < positions[i] AND best[j] + 1 > best[i] THEN
                    best[i] := best[j] + 1;
                END IF;
            END LOOP;
            longest := greatest(longest, best[i]);
        END LOOP;
        score := longest::double precision / cardinality(answer_key);
    ELSIF p_kind = 'matching' THEN
        IF shape <> 'pairs' THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongShape)' USING ERRCODE = '22023';
        END IF;
        IF jsonb_array_length(item) = 0 THEN
            RAISE EXCEPTION 'the response is not an answer to this question (empty)' USING ERRCODE = '22023';
        END IF;
        IF jsonb_array_length(item) <> cardinality(answer_key) THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongCount)' USING ERRCODE = '22023';
        END IF;
        bound := jsonb_array_length(p_details -> 'targets');
        IF EXISTS (SELECT 1 FROM jsonb_array_elements_text(item) AS v WHERE v::numeric < 0 OR v::numeric >= bound) THEN
            RAISE EXCEPTION 'the response is not an answer to this question (outOfRange)' USING ERRCODE = '22023';
        END IF;
        SELECT count(*) FILTER (WHERE g.v::integer = answer_key[g.n]) INTO right_picks
        FROM jsonb_array_elements_text(item) WITH ORDINALITY AS g(v, n);
        correct := right_picks = cardinality(answer_key);
        score := right_picks::double precision / cardinality(answer_key);
    ELSIF p_kind = 'fill-in' THEN
        IF shape <> 'text' THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongShape)' USING ERRCODE = '22023';
        END IF;
        typed := public.fill_in_normalized(p_response ->> 'text');
        IF typed = '' THEN
            RAISE EXCEPTION 'the response is not an answer to this question (empty)' USING ERRCODE = '22023';
        END IF;
        IF length(typed) > 200 THEN
            RAISE EXCEPTION 'the response is not an answer to this question (tooLong)' USING ERRCODE = '22023';
        END IF;
        SELECT t.correct, t.score INTO correct, score FROM public.typed_answer_outcome(p_details, typed) AS t;
    ELSIF p_kind = 'cloze' THEN
        IF shape <> 'gaps' THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongShape)' USING ERRCODE = '22023';
        END IF;
        IF jsonb_array_length(p_response -> 'gaps') <> jsonb_array_length(p_details -> 'gaps') THEN
            RAISE EXCEPTION 'the response is not an answer to this question (wrongCount)' USING ERRCODE = '22023';
        END IF;
        IF NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(p_response -> 'gaps') AS v WHERE public.fill_in_normalized(v) <> '') THEN
            RAISE EXCEPTION 'the response is not an answer to this question (empty)' USING ERRCODE = '22023';
        END IF;
        correct := true;
        score := 0;
        bound := 0;
        FOR i IN 0 .. jsonb_array_length(p_details -> 'gaps') - 1 LOOP
            item := p_details -> 'gaps' -> i;
            typed := public.fill_in_normalized(p_response -> 'gaps' ->> i);
            IF length(typed) > 200 THEN
                RAISE EXCEPTION 'the response is not an answer to this question (tooLong)' USING ERRCODE = '22023';
            END IF;
            -- A choice gap takes only one of its choices (or nothing).
            IF item ? 'choices' AND typed <> '' AND NOT EXISTS (
                SELECT 1 FROM jsonb_array_elements_text(item -> 'choices') AS c WHERE public.fill_in_normalized(c) = typed) THEN
                RAISE EXCEPTION 'the response is not an answer to this question (outOfRange)' USING ERRCODE = '22023';
            END IF;
            j := coalesce((item ->> 'weight')::integer, 1);
            bound := bound + j;
            IF typed = '' THEN
                correct := false;
            ELSE
                SELECT t.correct, t.score INTO gap_right, gap_score FROM public.typed_answer_outcome(item, typed) AS t;
                correct := correct AND gap_right;
                score := score + gap_score * j;
            END IF;
        END LOOP;
        score := CASE WHEN bound > 0 THEN score / bound ELSE 0 END;
    ELSIF p_kind = 'hotspot' THEN
        IF shape = 'indexes' THEN
            IF cardinality(picks) <> 1 THEN
                RAISE EXCEPTION 'the response is not an answer to this question (wrongCount)' USING ERRCODE = '22023';
            END IF;
            picked := picks[1];
        ELSIF shape = 'point' THEN
            x := (p_response -> 'point' ->> 0)::double precision;
            y := (p_response -> 'point' ->> 1)::double precision;
            -- The first region the point lies in is the one picked; outside them all is a miss.
            SELECT o.n - 1 INTO picked FROM jsonb_array_elements(p_options) WITH ORDINALITY AS o(value, n)
            WHERE public.hotspot_contains(o.value -> 'region', x, y) ORDER BY o.n LIMIT 1;
        ELSE
            RAISE EXCEPTION 'the response is not an answer to this question (wrongShape)' USING ERRCODE = '22023';
        END IF;
        correct := picked IS NOT NULL AND picked = ANY (answer_key);
        score := CASE WHEN correct THEN 1 ELSE 0 END;
    ELSE
        RAISE EXCEPTION 'unknown question type %', p_kind USING ERRCODE = '22023';
    END IF;
END
$$;


ALTER FUNCTION public.answer_outcome(p_kind text, p_key jsonb, p_options jsonb, p_details jsonb, p_response jsonb, OUT correct boolean, OUT score double precision) OWNER TO portal_owner;

--
-- Name: answer_seconds_typical(uuid); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.answer_seconds_typical(p_user uuid) RETURNS integer
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT coalesce((SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r.time_ms) / 1000)::integer
                     FROM (SELECT a.time_ms FROM public.answers a WHERE a.user_id = p_user ORDER BY a.answered_at DESC LIMIT 200) AS r), 20)
$$;


ALTER FUNCTION public.answer_seconds_typical(p_user uuid) OWNER TO portal_owner;

--
-- Name: answers_admit(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.answers_admit() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
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
$$;


ALTER FUNCTION public.answers_admit() OWNER TO portal_auth;

--
-- Name: answers_schedule(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.answers_schedule() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    student record;
    answer record;
BEGIN
    FOR student IN
        SELECT n.user_id,
               count(*) FILTER (WHERE k.reviews) AS reviews,
               min(n.answered_at) FILTER (WHERE k.reviews) AS earliest,
               (array_agg(n.question_id) FILTER (WHERE k.reviews))[1] AS question_id,
               (array_agg(n.rating) FILTER (WHERE k.reviews))[1] AS rating,
               array_agg(n.id) AS ids
        FROM admitted n JOIN public.study_sessions s ON s.id = n.session_id
        -- A rated answer outside a mock exam reviews its card now.
        CROSS JOIN LATERAL (SELECT n.rating IS NOT NULL AND s.mode <> 'mock' AS reviews) AS k
        WHERE n.user_id IS NOT NULL
        GROUP BY n.user_id
    LOOP
        PERFORM public.reader_changed(student.user_id, false);
        -- Late: a scheduled answer stored before this statement is newer than the earliest of
        -- its own, or a mock exam ended after it (a statement of its own, given the statement's
        -- ids: measured cheaper than asking it of the transition table).
        IF student.reviews > 0
           AND (EXISTS (SELECT 1 FROM public.answers a
                        WHERE a.user_id = student.user_id AND a.answered_at > student.earliest AND a.rating IS NOT NULL
                          AND a.id <> ALL (student.ids))
                OR EXISTS (SELECT 1 FROM public.study_sessions s
                           WHERE s.user_id = student.user_id AND s.mode = 'mock' AND s.finished_at > student.earliest)) THEN
            PERFORM public.review_card_rebuild(student.user_id, NULL);
        ELSIF student.reviews = 1 THEN
            PERFORM public.review_card_apply(student.user_id, student.question_id, student.rating, student.earliest);
        ELSIF student.reviews > 1 THEN
            FOR answer IN
                SELECT n.question_id, n.rating, n.answered_at
                FROM admitted n JOIN public.study_sessions s ON s.id = n.session_id
                WHERE n.user_id = student.user_id AND n.rating IS NOT NULL AND s.mode <> 'mock'
                ORDER BY n.answered_at, n.id
            LOOP
                PERFORM public.review_card_apply(student.user_id, answer.question_id, answer.rating, answer.answered_at);
            END LOOP;
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;


ALTER FUNCTION public.answers_schedule() OWNER TO portal_auth;

--
-- Name: app_form_key(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.app_form_key() RETURNS bytea
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT s.value FROM public.app_secrets s WHERE s.name = 'form-signing'
$$;


ALTER FUNCTION public.app_form_key() OWNER TO portal_auth;

--
-- Name: app_guest_key(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.app_guest_key() RETURNS bytea
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.guest_token', true), ''), 'UTF8'));
END
$$;


ALTER FUNCTION public.app_guest_key() OWNER TO portal_owner;

--
-- Name: app_hosted_events(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.app_hosted_events() RETURNS uuid[]
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(e.id), '{}') FROM public.live_events e WHERE e.host_id = me);
END
$$;


ALTER FUNCTION public.app_hosted_events() OWNER TO portal_auth;

--
-- Name: app_member_classes(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.app_member_classes() RETURNS uuid[]
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(m.class_id), '{}') FROM public.class_members m WHERE m.user_id = me AND m.left_at IS NULL);
END
$$;


ALTER FUNCTION public.app_member_classes() OWNER TO portal_auth;

--
-- Name: app_now(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.app_now() RETURNS timestamp with time zone
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN (SELECT pg_catalog.now() + pg_catalog.make_interval(secs => c.offset_seconds) FROM public.server_clock c);
END
$$;


ALTER FUNCTION public.app_now() OWNER TO portal_owner;

--
-- Name: app_role(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.app_role() RETURNS text
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN COALESCE((
        SELECT u.role FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
        WHERE s.token_hash = pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.session_token', true), ''), 'UTF8'))
          AND u.disabled_at IS NULL), 'anonymous');
END
$$;


ALTER FUNCTION public.app_role() OWNER TO portal_auth;

--
-- Name: app_students(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.app_students() RETURNS uuid[]
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL OR public.app_role() NOT IN ('teacher', 'admin') THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(DISTINCT m.user_id), '{}')
            FROM public.class_members m JOIN public.classes c ON c.id = m.class_id
            WHERE m.left_at IS NULL AND c.teacher_id = me);
END
$$;


ALTER FUNCTION public.app_students() OWNER TO portal_auth;

--
-- Name: app_taught_classes(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.app_taught_classes() RETURNS uuid[]
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(c.id), '{}') FROM public.classes c WHERE c.teacher_id = me);
END
$$;


ALTER FUNCTION public.app_taught_classes() OWNER TO portal_auth;

--
-- Name: app_user_id(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.app_user_id() RETURNS uuid
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN (SELECT s.user_id FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
            WHERE s.token_hash = pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.session_token', true), ''), 'UTF8'))
              AND u.disabled_at IS NULL);
END
$$;


ALTER FUNCTION public.app_user_id() OWNER TO portal_auth;

--
-- Name: auth_change_password(uuid, bytea, text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_change_password(p_attempt uuid, p_proof bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    reserved record;
    account record;
BEGIN
    IF me IS NULL THEN
        RETURN false;
    END IF;
    DELETE FROM public.login_attempts a WHERE a.id = p_attempt AND a.expires_at >= now_at RETURNING * INTO reserved;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    SELECT u.id, u.password_hash INTO account FROM public.users u WHERE u.id = me AND lower(u.username) = reserved.username;
    IF NOT FOUND OR NOT public.auth_proof_matches(account.password_hash, p_proof) THEN
        RETURN false;
    END IF;
    UPDATE public.login_throttle SET failures = 0, blocked_until = NULL WHERE key_hash = reserved.account_key;
    UPDATE public.users SET password_hash = p_new_hash WHERE id = me;
    PERFORM public.auth_open_session(me, p_token, p_csrf, p_user_agent, now_at);
    RETURN true;
END
$$;


ALTER FUNCTION public.auth_change_password(p_attempt uuid, p_proof bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text) OWNER TO portal_auth;

--
-- Name: auth_create_user(text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_create_user(p_username text, p_display_name text, p_password_hash text, p_role text) RETURNS uuid
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    INSERT INTO public.users (username, display_name, password_hash, role) VALUES (p_username, p_display_name, p_password_hash, p_role)
    ON CONFLICT (lower(username)) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role, disabled_at = NULL
    RETURNING id
$$;


ALTER FUNCTION public.auth_create_user(p_username text, p_display_name text, p_password_hash text, p_role text) OWNER TO portal_auth;

--
-- Name: auth_delete_own_account(uuid, bytea); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_delete_own_account(p_attempt uuid, p_proof bytea) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    reserved record;
    account record;
BEGIN
    IF me IS NULL THEN
        RETURN 'unknown';
    END IF;
    SELECT u.id, u.username, u.password_hash INTO account FROM public.users u WHERE u.id = me;
    IF account.password_hash IS NOT NULL THEN
        DELETE FROM public.login_attempts a WHERE a.id = p_attempt AND a.expires_at >= now_at RETURNING * INTO reserved;
        IF NOT FOUND OR reserved.username <> lower(account.username) OR NOT public.auth_proof_matches(account.password_hash, p_proof) THEN
            RETURN 'wrong';
        END IF;
    ELSIF NOT EXISTS (
        SELECT FROM public.auth_sessions s
        WHERE s.user_id = me AND s.created_at > now_at - interval '10 minutes'
          AND s.token_hash = sha256(convert_to(NULLIF(current_setting('app.session_token', true), ''), 'UTF8'))) THEN
        RETURN 'wrong';
    END IF;
    PERFORM public.account_erase(me, NULL, 'self');
    RETURN 'deleted';
END
$$;


ALTER FUNCTION public.auth_delete_own_account(p_attempt uuid, p_proof bytea) OWNER TO portal_auth;

--
-- Name: auth_deletion_confirmation(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_deletion_confirmation() RETURNS TABLE(has_password boolean, fresh_sign_in boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT u.password_hash IS NOT NULL, s.created_at > public.app_now() - interval '10 minutes'
    FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
    WHERE s.token_hash = sha256(convert_to(NULLIF(current_setting('app.session_token', true), ''), 'UTF8')) AND u.disabled_at IS NULL
$$;


ALTER FUNCTION public.auth_deletion_confirmation() OWNER TO portal_auth;

--
-- Name: auth_hash_parts(text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.auth_hash_parts(p_encoded text, OUT salt bytea, OUT memlimit bigint, OUT opslimit integer, OUT digest bytea) RETURNS record
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    parts text[] := string_to_array(p_encoded, '$');
    costs text[];
BEGIN
    IF p_encoded IS NULL OR cardinality(parts) <> 6 OR parts[2] <> 'argon2id' THEN
        RETURN;
    END IF;
    costs := string_to_array(parts[4], ',');
    memlimit := substr(costs[1], 3)::bigint * 1024;
    opslimit := substr(costs[2], 3)::integer;
    -- libsodium writes base64 without padding; PostgreSQL reads it with.
    salt := decode(rpad(parts[5], (length(parts[5]) + 3) / 4 * 4, '='), 'base64');
    digest := decode(rpad(parts[6], (length(parts[6]) + 3) / 4 * 4, '='), 'base64');
END
$_$;


ALTER FUNCTION public.auth_hash_parts(p_encoded text, OUT salt bytea, OUT memlimit bigint, OUT opslimit integer, OUT digest bytea) OWNER TO portal_owner;

--
-- Name: auth_issue_reset(uuid, bytea); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_issue_reset(p_user uuid, p_code_hash bytea) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    my_role text := public.app_role();
    account record;
BEGIN
    IF me IS NULL OR p_code_hash IS NULL OR length(p_code_hash) <> 32 OR p_user = me THEN
        RETURN 'unknown';
    END IF;
    SELECT u.id, u.username, u.role, u.password_hash, u.made_by INTO account FROM public.users u WHERE u.id = p_user;
    IF NOT FOUND OR NOT (my_role = 'admin' OR (my_role = 'teacher' AND account.role = 'student' AND p_user = ANY (public.app_students()))) THEN
        RETURN 'unknown';
    END IF;
    -- No password and not made by a teacher (who may hand a first one out): a school's sign-in.
    IF account.password_hash IS NULL AND account.made_by IS NULL THEN
        RETURN 'external';
    END IF;
    IF my_role <> 'admin' AND public.rate_limit('reset-codes', me::text, 300, 86400, true) > 0 THEN
        RETURN 'limited';
    END IF;
    DELETE FROM public.password_resets r WHERE r.user_id = p_user AND r.used_at IS NULL;
    DELETE FROM public.password_resets r WHERE r.id IN (SELECT x.id FROM public.password_resets x WHERE x.expires_at < now_at - interval '30 days' LIMIT 20);
    INSERT INTO public.password_resets (user_id, code_hash, issued_by, issued_at, expires_at)
    VALUES (p_user, p_code_hash, me, now_at, now_at + interval '1 day');
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT now_at, me, u.display_name, 'account.reset-code', account.username, pg_catalog.jsonb_build_object('role', my_role)
    FROM public.users u WHERE u.id = me;
    RETURN 'issued';
END
$$;


ALTER FUNCTION public.auth_issue_reset(p_user uuid, p_code_hash bytea) OWNER TO portal_auth;

--
-- Name: auth_login_begin(text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_login_begin(p_username text, p_address text) RETURNS TABLE(attempt uuid, salt bytea, memlimit bigint, opslimit integer, retry_after integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    login_name text := lower(btrim(p_username));
    account_id uuid;
    account_hash text;
    known boolean := false;
    account_key bytea;
    address_key bytea;
    wait_until timestamptz;
    throttle record;
    hash_salt bytea;
    hash_memlimit bigint;
    hash_opslimit integer;
BEGIN
    SELECT u.id, u.password_hash INTO account_id, account_hash FROM public.users u WHERE lower(u.username) = login_name;
    IF account_id IS NOT NULL THEN
        known := EXISTS (SELECT 1 FROM public.login_addresses a
                         WHERE a.user_id = account_id AND a.address_hash = sha256(convert_to(p_address, 'UTF8')));
    END IF;
    account_key := sha256(convert_to(CASE WHEN known THEN 'account:' || login_name || '@' || p_address ELSE 'account:' || login_name END, 'UTF8'));
    address_key := sha256(convert_to('address:' || p_address, 'UTF8'));

    -- Both rows exist and are locked, in one order, so concurrent attempts queue here.
    INSERT INTO public.login_throttle (key_hash)
    SELECT k FROM unnest(ARRAY[account_key, address_key]) AS k ORDER BY k
    ON CONFLICT (key_hash) DO NOTHING;
    FOR throttle IN SELECT * FROM public.login_throttle t WHERE t.key_hash IN (account_key, address_key) ORDER BY t.key_hash FOR UPDATE LOOP
        -- Quiet for 15 minutes: the slate is clean again.
        IF throttle.last_failure_at IS NOT NULL AND throttle.last_failure_at < now_at - interval '15 minutes'
           AND (throttle.blocked_until IS NULL OR throttle.blocked_until <= now_at) THEN
            UPDATE public.login_throttle SET failures = 0, blocked_until = NULL WHERE key_hash = throttle.key_hash;
        ELSIF throttle.blocked_until > now_at THEN
            wait_until := greatest(wait_until, throttle.blocked_until);
        END IF;
    END LOOP;
    IF wait_until IS NOT NULL THEN
        RETURN QUERY SELECT NULL::uuid, NULL::bytea, NULL::bigint, NULL::integer,
                            greatest(1, ceil(extract(epoch FROM wait_until - now_at)))::integer;
        RETURN;
    END IF;
    -- Count it now; past the limit (5 per account, 50 per address) the key backs off.
    UPDATE public.login_throttle t
    SET failures = t.failures + 1, last_failure_at = now_at,
        blocked_until = CASE WHEN t.failures + 1 >= CASE WHEN t.key_hash = address_key THEN 50 ELSE 5 END
                             THEN now_at + least(interval '15 minutes',
                                                 interval '30 seconds' * power(2, t.failures + 1 - CASE WHEN t.key_hash = address_key THEN 50 ELSE 5 END))
                        END
    WHERE t.key_hash IN (account_key, address_key);

    -- Keep the tables small: expired attempts and keys quiet for a day go.
    DELETE FROM public.login_attempts WHERE id IN (SELECT a.id FROM public.login_attempts a WHERE a.expires_at < now_at LIMIT 20);
    DELETE FROM public.login_throttle WHERE key_hash IN (
        SELECT t.key_hash FROM public.login_throttle t WHERE t.last_failure_at < now_at - interval '1 day' LIMIT 20);

    SELECT p.salt, p.memlimit, p.opslimit INTO hash_salt, hash_memlimit, hash_opslimit FROM public.auth_hash_parts(account_hash) AS p;
    IF hash_salt IS NULL THEN
        hash_salt := substring(sha256((SELECT s.value FROM public.app_secrets s WHERE s.name = 'login-decoy') || convert_to(login_name, 'UTF8')) FROM 1 FOR 16);
        hash_memlimit := 19456::bigint * 1024;
        hash_opslimit := 2;
    END IF;
    RETURN QUERY
        INSERT INTO public.login_attempts AS a (username, account_key, address_key, expires_at)
        VALUES (login_name, account_key, address_key, now_at + interval '5 minutes')
        RETURNING a.id, hash_salt, hash_memlimit, hash_opslimit, 0;
END
$$;


ALTER FUNCTION public.auth_login_begin(p_username text, p_address text) OWNER TO portal_auth;

--
-- Name: auth_login_finish(uuid, bytea, text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_login_finish(p_attempt uuid, p_proof bytea, p_token text, p_csrf text, p_user_agent text, p_address text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    reserved record;
    account record;
BEGIN
    DELETE FROM public.login_attempts a WHERE a.id = p_attempt AND a.expires_at >= now_at RETURNING * INTO reserved;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    SELECT u.id, u.password_hash, u.disabled_at INTO account FROM public.users u WHERE lower(u.username) = reserved.username;
    IF NOT FOUND OR account.disabled_at IS NOT NULL OR NOT public.auth_proof_matches(account.password_hash, p_proof) THEN
        RETURN NULL;
    END IF;
    UPDATE public.login_throttle SET failures = 0, blocked_until = NULL WHERE key_hash = reserved.account_key;
    UPDATE public.login_throttle SET failures = greatest(0, failures - 1),
           blocked_until = CASE WHEN failures - 1 < 50 THEN NULL ELSE blocked_until END
    WHERE key_hash = reserved.address_key;
    INSERT INTO public.login_addresses (user_id, address_hash, last_success_at)
    VALUES (account.id, sha256(convert_to(p_address, 'UTF8')), now_at)
    ON CONFLICT (user_id, address_hash) DO UPDATE SET last_success_at = EXCLUDED.last_success_at;
    DELETE FROM public.login_addresses a WHERE a.user_id = account.id AND a.address_hash NOT IN (
        SELECT b.address_hash FROM public.login_addresses b WHERE b.user_id = account.id ORDER BY b.last_success_at DESC LIMIT 20);
    PERFORM public.auth_open_session(account.id, p_token, p_csrf, p_user_agent, now_at);
    RETURN account.id;
END
$$;


ALTER FUNCTION public.auth_login_finish(p_attempt uuid, p_proof bytea, p_token text, p_csrf text, p_user_agent text, p_address text) OWNER TO portal_auth;

--
-- Name: auth_open_session(uuid, text, text, text, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_open_session(p_user uuid, p_token text, p_csrf text, p_user_agent text, p_at timestamp with time zone) RETURNS void
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    INSERT INTO public.auth_sessions (user_id, token_hash, csrf_token, created_at, last_seen_at, user_agent)
    VALUES (p_user, sha256(convert_to(p_token, 'UTF8')), p_csrf, p_at, p_at, left(p_user_agent, 200))
$$;


ALTER FUNCTION public.auth_open_session(p_user uuid, p_token text, p_csrf text, p_user_agent text, p_at timestamp with time zone) OWNER TO portal_auth;

--
-- Name: auth_proof_matches(text, bytea); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_proof_matches(p_encoded text, p_proof bytea) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT p_proof IS NOT NULL AND p_encoded IS NOT NULL
       AND sha256(p_proof) = sha256((SELECT parts.digest FROM public.auth_hash_parts(p_encoded) AS parts))
$$;


ALTER FUNCTION public.auth_proof_matches(p_encoded text, p_proof bytea) OWNER TO portal_auth;

--
-- Name: auth_register(text, text, text, text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_register(p_username text, p_display_name text, p_password_hash text, p_token text, p_csrf text, p_user_agent text, p_time_zone text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    known boolean := length(p_time_zone) <= 64 AND EXISTS (SELECT 1 FROM pg_catalog.pg_timezone_names z WHERE z.name = p_time_zone);
    created uuid;
BEGIN
    INSERT INTO public.users (username, display_name, password_hash, time_zone, time_zone_confirmed)
    VALUES (p_username, p_display_name, p_password_hash, CASE WHEN known THEN p_time_zone ELSE 'UTC' END, coalesce(known, false))
    ON CONFLICT (lower(username)) DO NOTHING
    RETURNING id INTO created;
    IF created IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM public.auth_open_session(created, p_token, p_csrf, p_user_agent, now_at);
    RETURN created;
END
$$;


ALTER FUNCTION public.auth_register(p_username text, p_display_name text, p_password_hash text, p_token text, p_csrf text, p_user_agent text, p_time_zone text) OWNER TO portal_auth;

--
-- Name: auth_remove_email(text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_remove_email(p_locale text, p_subject text, p_text text, p_html text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
    removed text;
    name text;
BEGIN
    DELETE FROM public.email_verifications v WHERE v.user_id = me AND v.used_at IS NULL;
    DELETE FROM public.user_emails e WHERE e.user_id = me RETURNING e.email INTO removed;
    IF removed IS NULL THEN
        RETURN false;
    END IF;
    SELECT u.display_name INTO name FROM public.users u WHERE u.id = me;
    PERFORM public.mail_queue('email-changed', removed, name, p_locale, p_subject, p_text, p_html, NULL, NULL);
    RETURN true;
END
$$;


ALTER FUNCTION public.auth_remove_email(p_locale text, p_subject text, p_text text, p_html text) OWNER TO portal_auth;

--
-- Name: auth_request_email(text, text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_request_email(p_email text, p_locale text, p_subject text, p_text text, p_html text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $_$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    address text := btrim(coalesce(p_email, ''));
    token text;
    name text;
BEGIN
    IF me IS NULL THEN
        RETURN 'unknown';
    END IF;
    IF EXISTS (SELECT FROM public.users u WHERE u.id = me AND u.made_by IS NOT NULL) THEN
        RETURN 'teacher-made';
    END IF;
    IF length(address) NOT BETWEEN 3 AND 254 OR address !~ '^[!-~]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$' THEN
        RETURN 'invalid';
    END IF;
    IF EXISTS (SELECT FROM public.user_emails e WHERE e.user_id = me AND lower(e.email) = lower(address)) THEN
        RETURN 'same';
    END IF;
    IF public.rate_limit('email-verify', me::text, 5, 3600, true) > 0 THEN
        RETURN 'limited';
    END IF;
    token := public.mail_token();
    DELETE FROM public.email_verifications v WHERE v.user_id = me AND v.used_at IS NULL;
    INSERT INTO public.email_verifications (user_id, email, token_hash, created_at, expires_at)
    VALUES (me, address, sha256(convert_to(token, 'UTF8')), now_at, now_at + interval '1 day');
    SELECT u.display_name INTO name FROM public.users u WHERE u.id = me;
    PERFORM public.mail_queue('email-verify', address, name, p_locale, p_subject, p_text, p_html, '/verify-email/', token);
    RETURN 'sent';
END
$_$;


ALTER FUNCTION public.auth_request_email(p_email text, p_locale text, p_subject text, p_text text, p_html text) OWNER TO portal_auth;

--
-- Name: auth_request_reset_mail(text, text, text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_request_reset_mail(p_login text, p_address text, p_locale text, p_subject text, p_text text, p_html text) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    login_name text := lower(btrim(coalesce(p_login, '')));
    wait integer;
    account record;
    token text;
BEGIN
    wait := public.rate_limit('reset-mail-address', coalesce(p_address, ''), 10, 3600, true);
    IF wait > 0 THEN
        RETURN wait;
    END IF;
    -- Made whether or not an account matches: the same work either way, as far as it can be.
    token := public.mail_token();
    SELECT u.id, u.display_name, e.email INTO account
    FROM public.users u JOIN public.user_emails e ON e.user_id = u.id
    WHERE (lower(u.username) = login_name OR lower(e.email) = login_name)
      AND u.disabled_at IS NULL AND (u.password_hash IS NOT NULL OR u.made_by IS NOT NULL)
    LIMIT 1;
    IF NOT FOUND OR public.rate_limit('reset-mail-account', account.id::text, 3, 3600, true) > 0 THEN
        RETURN 0;
    END IF;
    DELETE FROM public.password_resets r WHERE r.user_id = account.id AND r.used_at IS NULL AND r.by_mail;
    INSERT INTO public.password_resets (user_id, code_hash, issued_by, issued_at, expires_at, by_mail)
    VALUES (account.id, sha256(convert_to(token, 'UTF8')), NULL, now_at, now_at + interval '1 hour', true);
    PERFORM public.mail_queue('password-reset', account.email, account.display_name, p_locale, p_subject, p_text, p_html, '/reset/', token);
    RETURN 0;
END
$$;


ALTER FUNCTION public.auth_request_reset_mail(p_login text, p_address text, p_locale text, p_subject text, p_text text, p_html text) OWNER TO portal_auth;

--
-- Name: auth_reset_by_link(text, text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_reset_by_link(p_token text, p_new_hash text, p_session_token text, p_csrf text, p_user_agent text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    reset record;
    account record;
BEGIN
    IF p_new_hash IS NULL THEN
        RETURN NULL;
    END IF;
    UPDATE public.password_resets r SET used_at = now_at
    WHERE r.code_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) AND r.by_mail AND r.used_at IS NULL AND r.expires_at > now_at
    RETURNING r.* INTO reset;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    SELECT u.id, u.username, u.disabled_at INTO account FROM public.users u WHERE u.id = reset.user_id;
    IF account.disabled_at IS NOT NULL THEN
        RETURN NULL;
    END IF;
    UPDATE public.users SET password_hash = p_new_hash WHERE id = account.id;
    UPDATE public.login_throttle SET failures = 0, blocked_until = NULL
    WHERE key_hash = sha256(convert_to('account:' || lower(account.username), 'UTF8'));
    PERFORM public.auth_open_session(account.id, p_session_token, p_csrf, p_user_agent, now_at);
    RETURN account.id;
END
$$;


ALTER FUNCTION public.auth_reset_by_link(p_token text, p_new_hash text, p_session_token text, p_csrf text, p_user_agent text) OWNER TO portal_auth;

--
-- Name: auth_reset_link_live(text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_reset_link_live(p_token text) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT EXISTS (
        SELECT FROM public.password_resets r
        WHERE r.code_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) AND r.by_mail AND r.used_at IS NULL AND r.expires_at > public.app_now())
$$;


ALTER FUNCTION public.auth_reset_link_live(p_token text) OWNER TO portal_auth;

--
-- Name: auth_reset_password(text, bytea, text, text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_reset_password(p_username text, p_code_hash bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text, p_address text) RETURNS TABLE(user_id uuid, retry_after integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    login_name text := lower(btrim(p_username));
    wait integer;
    account record;
    reset record;
BEGIN
    wait := public.auth_reset_wait(p_address, p_username, true);
    IF wait > 0 THEN
        RETURN QUERY SELECT NULL::uuid, wait;
        RETURN;
    END IF;
    -- A teacher-made account chooses its first password this way; a school's sign-in has none here.
    SELECT u.id, u.disabled_at INTO account FROM public.users u
    WHERE lower(u.username) = login_name AND (u.password_hash IS NOT NULL OR u.made_by IS NOT NULL);
    IF NOT FOUND OR account.disabled_at IS NOT NULL OR p_code_hash IS NULL OR p_new_hash IS NULL THEN
        RETURN QUERY SELECT NULL::uuid, 0;
        RETURN;
    END IF;
    UPDATE public.password_resets r SET used_at = now_at
    WHERE r.user_id = account.id AND r.code_hash = p_code_hash AND NOT r.by_mail AND r.used_at IS NULL AND r.expires_at > now_at
    RETURNING r.* INTO reset;
    IF NOT FOUND THEN
        RETURN QUERY SELECT NULL::uuid, 0;
        RETURN;
    END IF;
    UPDATE public.users SET password_hash = p_new_hash WHERE id = account.id;
    -- The account's sign-ins start afresh: a forgotten password's failures no longer count.
    UPDATE public.login_throttle SET failures = 0, blocked_until = NULL
    WHERE key_hash = sha256(convert_to('account:' || login_name, 'UTF8'));
    PERFORM public.auth_open_session(account.id, p_token, p_csrf, p_user_agent, now_at);
    RETURN QUERY SELECT account.id, 0;
END
$$;


ALTER FUNCTION public.auth_reset_password(p_username text, p_code_hash bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text, p_address text) OWNER TO portal_auth;

--
-- Name: auth_reset_wait(text, text, boolean); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_reset_wait(p_address text, p_username text, p_take boolean) RETURNS integer
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT greatest(public.rate_limit('reset-address', p_address, 20, 600, p_take),
                    public.rate_limit('reset-account', lower(btrim(p_username)), 5, 600, p_take))
$$;


ALTER FUNCTION public.auth_reset_wait(p_address text, p_username text, p_take boolean) OWNER TO portal_auth;

--
-- Name: auth_resolve_session(text, timestamp with time zone, interval, interval); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_resolve_session(p_token text, p_now timestamp with time zone, p_idle interval, p_absolute interval) RETURNS TABLE(session_id uuid, user_id uuid, role text, display_name text, csrf_token text, locale text, time_zone text, color_scheme text, hides_readings boolean, reads_aloud boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := greatest(p_now, public.app_now());
    hit record;
BEGIN
    SELECT s.id, s.user_id, s.created_at, s.last_seen_at, s.csrf_token, u.role, u.display_name, u.locale, u.time_zone, u.color_scheme, u.hides_readings,
           u.reads_aloud OR EXISTS (SELECT 1 FROM public.accommodations a WHERE a.student_id = u.id AND a.reads_aloud) AS reads_aloud, u.disabled_at
      INTO hit
      FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
     WHERE s.token_hash = sha256(convert_to(p_token, 'UTF8'));
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF hit.disabled_at IS NOT NULL OR now_at - hit.last_seen_at > p_idle OR now_at - hit.created_at > p_absolute THEN
        DELETE FROM public.auth_sessions WHERE id = hit.id;
        RETURN;
    END IF;
    IF now_at - hit.last_seen_at > interval '1 minute' THEN
        UPDATE public.auth_sessions SET last_seen_at = now_at WHERE id = hit.id;
    END IF;
    RETURN QUERY SELECT hit.id, hit.user_id, hit.role, hit.display_name, hit.csrf_token, hit.locale, hit.time_zone, hit.color_scheme, hit.hides_readings, hit.reads_aloud;
END
$$;


ALTER FUNCTION public.auth_resolve_session(p_token text, p_now timestamp with time zone, p_idle interval, p_absolute interval) OWNER TO portal_auth;

--
-- Name: auth_verify_email(text, text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.auth_verify_email(p_token text, p_locale text, p_subject text, p_text text, p_html text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    link record;
    previous text;
    name text;
BEGIN
    UPDATE public.email_verifications v SET used_at = now_at
    WHERE v.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) AND v.used_at IS NULL AND v.expires_at > now_at
    RETURNING v.* INTO link;
    IF NOT FOUND THEN
        RETURN 'expired';
    END IF;
    IF EXISTS (SELECT FROM public.user_emails e WHERE lower(e.email) = lower(link.email) AND e.user_id <> link.user_id) THEN
        RETURN 'taken';
    END IF;
    SELECT e.email INTO previous FROM public.user_emails e WHERE e.user_id = link.user_id;
    INSERT INTO public.user_emails (user_id, email, verified_at) VALUES (link.user_id, link.email, now_at)
    ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, verified_at = EXCLUDED.verified_at;
    IF previous IS NOT NULL AND lower(previous) <> lower(link.email) THEN
        SELECT u.display_name INTO name FROM public.users u WHERE u.id = link.user_id;
        PERFORM public.mail_queue('email-changed', previous, name, p_locale, p_subject, p_text, p_html, NULL, NULL);
    END IF;
    RETURN 'verified';
END
$$;


ALTER FUNCTION public.auth_verify_email(p_token text, p_locale text, p_subject text, p_text text, p_html text) OWNER TO portal_auth;

--
-- Name: base64url_bytes(text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.base64url_bytes(p_text text) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $_$
BEGIN
    IF p_text !~ '^[A-Za-z0-9_-]*$' OR length(p_text) % 4 = 1 THEN
        RETURN NULL;
    END IF;
    RETURN decode(rpad(translate(p_text, '-_', '+/'), (length(p_text) + 3) / 4 * 4, '='), 'base64');
END
$_$;


ALTER FUNCTION public.base64url_bytes(p_text text) OWNER TO portal_owner;

--
-- Name: bytes_numeric(bytea); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.bytes_numeric(p_bytes bytea) RETURNS numeric
    LANGUAGE plpgsql IMMUTABLE STRICT
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    result numeric := 0;
    position integer;
BEGIN
    FOR position IN 0 .. length(p_bytes) - 1 LOOP
        result := result * 256 + get_byte(p_bytes, position);
    END LOOP;
    RETURN result;
END
$$;


ALTER FUNCTION public.bytes_numeric(p_bytes bytea) OWNER TO portal_owner;

--
-- Name: calendar_feed_data(text, integer); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.calendar_feed_data(p_token text, p_days integer DEFAULT 30) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    feed record;
    now_at timestamptz := public.app_now();
    today date;
    facts jsonb;
BEGIN
    SELECT f.user_id, f.body, f.made_for, f.changed_at, u.time_zone, u.locale, u.study_time, u.display_name
      INTO feed
    FROM public.calendar_feeds f JOIN public.users u ON u.id = f.user_id
    WHERE f.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) AND u.disabled_at IS NULL;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    today := (now_at AT TIME ZONE feed.time_zone)::date;
    facts := jsonb_build_object(
        'user', feed.user_id, 'name', feed.display_name, 'locale', feed.locale, 'timeZone', feed.time_zone,
        'studyTime', to_char(feed.study_time, 'HH24:MI'), 'today', today,
        'days', coalesce((
            SELECT jsonb_agg(jsonb_build_object('date', d.day, 'reviews', d.reviews) ORDER BY d.day)
            FROM (SELECT greatest((c.due AT TIME ZONE feed.time_zone)::date, today) AS day, count(*)::integer AS reviews
                  FROM public.review_cards c
                  WHERE c.user_id = feed.user_id AND c.due < ((today + p_days)::timestamp AT TIME ZONE feed.time_zone)
                  GROUP BY 1) AS d), '[]'::jsonb),
        'secondsPerReview', public.answer_seconds_typical(feed.user_id),
        'exams', coalesce((
            SELECT jsonb_agg(jsonb_build_object('id', x.exam_id, 'title', e.title, 'date', x.sits_on) ORDER BY x.sits_on, e.title)
            FROM public.exam_dates x JOIN public.exams e ON e.id = x.exam_id
            WHERE x.user_id = feed.user_id AND x.sits_on >= today), '[]'::jsonb),
        'deadlines', coalesce((
            SELECT jsonb_agg(jsonb_build_object('id', l.id, 'title', l.title, 'class', c.name, 'dueEpoch', extract(epoch FROM l.due_at)) ORDER BY l.due_at, l.id)
            FROM public.share_links l JOIN public.classes c ON c.id = l.class_id
            JOIN public.class_members m ON m.class_id = c.id AND m.user_id = feed.user_id AND m.left_at IS NULL
            WHERE l.due_at IS NOT NULL AND l.due_at > now_at AND l.revoked_at IS NULL), '[]'::jsonb));
    RETURN facts || jsonb_build_object('madeFor', md5(facts::text), 'kept', feed.body, 'keptFor', feed.made_for, 'changedEpoch', extract(epoch FROM feed.changed_at));
END
$$;


ALTER FUNCTION public.calendar_feed_data(p_token text, p_days integer) OWNER TO portal_auth;

--
-- Name: calendar_feed_keep(text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.calendar_feed_keep(p_token text, p_made_for text, p_body text) RETURNS timestamp with time zone
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE public.calendar_feeds f
    SET body = p_body, made_for = p_made_for,
        changed_at = CASE WHEN f.body IS DISTINCT FROM p_body OR f.changed_at IS NULL THEN date_trunc('second', public.app_now()) ELSE f.changed_at END
    WHERE f.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    RETURNING f.changed_at
$$;


ALTER FUNCTION public.calendar_feed_keep(p_token text, p_made_for text, p_body text) OWNER TO portal_auth;

--
-- Name: calendar_feed_start(text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.calendar_feed_start(p_token text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL OR length(coalesce(p_token, '')) < 32 THEN
        RAISE EXCEPTION 'a calendar feed needs a signed-in student and a long random token' USING ERRCODE = '42501';
    END IF;
    INSERT INTO public.calendar_feeds (user_id, token_hash, created_at)
    VALUES (me, sha256(convert_to(p_token, 'UTF8')), public.app_now())
    ON CONFLICT (user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = EXCLUDED.created_at,
                                        body = NULL, made_for = NULL, changed_at = NULL;
END
$$;


ALTER FUNCTION public.calendar_feed_start(p_token text) OWNER TO portal_auth;

--
-- Name: claim_guest_sessions(text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.claim_guest_sessions(p_guest_token text) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    owner uuid := public.app_user_id();
    key bytea := sha256(convert_to(p_guest_token, 'UTF8'));
    claimed integer;
BEGIN
    IF owner IS NULL OR p_guest_token IS NULL OR length(p_guest_token) < 32 THEN
        RETURN 0;
    END IF;
    UPDATE public.answers a SET user_id = owner, rating = CASE WHEN a.correct THEN 3 ELSE 1 END
    FROM public.study_sessions s
    WHERE s.id = a.session_id AND s.guest_key = key AND s.user_id IS NULL AND a.user_id IS NULL;
    UPDATE public.study_sessions SET user_id = owner, guest_key = NULL WHERE guest_key = key AND user_id IS NULL;
    GET DIAGNOSTICS claimed = ROW_COUNT;
    RETURN claimed;
END
$$;


ALTER FUNCTION public.claim_guest_sessions(p_guest_token text) OWNER TO portal_auth;

--
-- Name: class_account_cards(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.class_account_cards(p_batch uuid) RETURNS TABLE(class_id uuid, class_name text, made_at timestamp with time zone, user_id uuid, display_name text, username text, code text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT b.class_id, c.name, b.made_at, u.id, u.display_name, u.username,
           CASE WHEN b.codes_shown AND b.made_at > public.app_now() - interval '1 day' THEN card.value->>'code' END
    FROM public.class_account_batches b
    JOIN public.classes c ON c.id = b.class_id
    CROSS JOIN LATERAL jsonb_array_elements(b.cards) WITH ORDINALITY AS card(value, ord)
    JOIN public.users u ON u.id = (card.value->>'user')::uuid
    WHERE b.id = p_batch AND b.teacher_id = public.app_user_id()
      AND EXISTS (SELECT 1 FROM public.class_members m WHERE m.class_id = b.class_id AND m.user_id = u.id AND m.left_at IS NULL)
    ORDER BY card.ord
$$;


ALTER FUNCTION public.class_account_cards(p_batch uuid) OWNER TO portal_auth;

--
-- Name: class_by_code(text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.class_by_code(p_code text) RETURNS TABLE(id uuid, name text, teacher_name text, school_name text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT c.id, c.name, u.display_name, s.name
    FROM public.classes c JOIN public.users u ON u.id = c.teacher_id LEFT JOIN public.schools s ON s.id = c.school_id
    WHERE c.join_code = upper(btrim(p_code))
$$;


ALTER FUNCTION public.class_by_code(p_code text) OWNER TO portal_auth;

--
-- Name: class_version(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.class_version(p_class uuid) RETURNS text
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.classes c
                   WHERE c.id = p_class AND (c.teacher_id = public.app_user_id() OR public.app_role() = 'admin')) THEN
        RETURN NULL;
    END IF;
    RETURN md5(coalesce((SELECT string_agg(m.user_id::text || ':' || u.data_version, ',' ORDER BY m.user_id)
                         FROM public.class_members m JOIN public.users u ON u.id = m.user_id
                         WHERE m.class_id = p_class AND m.left_at IS NULL), '')
               || '|' || coalesce((SELECT count(*) || ':' || max(l.created_at)::text || ':' || coalesce(max(l.revoked_at)::text, '')
                                   FROM public.share_links l WHERE l.class_id = p_class), '')
               || '|' || (SELECT c.public_boards::text FROM public.classes c WHERE c.id = p_class));
END
$$;


ALTER FUNCTION public.class_version(p_class uuid) OWNER TO portal_auth;

--
-- Name: class_version_members(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.class_version_members(p_class uuid) RETURNS TABLE(version text, members uuid[])
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.classes c
                   WHERE c.id = p_class AND (c.teacher_id = public.app_user_id() OR public.app_role() = 'admin')) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT public.class_version(p_class),
                        COALESCE((SELECT pg_catalog.array_agg(m.user_id ORDER BY m.user_id) FROM public.class_members m
                                  WHERE m.class_id = p_class AND m.left_at IS NULL), '{}'::uuid[]);
END
$$;


ALTER FUNCTION public.class_version_members(p_class uuid) OWNER TO portal_auth;

--
-- Name: cloze_text_problem(text, jsonb); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.cloze_text_problem(p_text text, p_details jsonb) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    gaps integer := coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(p_details -> 'gaps') = 'array' THEN p_details -> 'gaps' END), 0);
    seen integer[] := '{}';
    mark integer;
    missing integer;
BEGIN
    FOR mark IN SELECT m[1]::integer FROM regexp_matches(p_text, '\{#([0-9]{1,4})\}', 'g') AS m LOOP
        CONTINUE WHEN mark < 1;
        IF mark > gaps THEN
            RETURN format('the text marks {#%s}, but the question has %s gaps', mark, gaps);
        END IF;
        IF mark = ANY (seen) THEN
            RETURN format('the text marks {#%s} twice', mark);
        END IF;
        seen := seen || mark;
    END LOOP;
    SELECT n INTO missing FROM generate_series(1, gaps) AS n WHERE NOT (n = ANY (seen)) ORDER BY n LIMIT 1;
    IF missing IS NOT NULL THEN
        RETURN format('the text does not mark gap %s as {#%s}', missing, missing);
    END IF;
    RETURN NULL;
END
$$;


ALTER FUNCTION public.cloze_text_problem(p_text text, p_details jsonb) OWNER TO portal_owner;

--
-- Name: data_version_bump(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.data_version_bump() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.user_id IS NOT NULL THEN
        PERFORM public.reader_changed(OLD.user_id);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.user_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
        PERFORM public.reader_changed(NEW.user_id);
    END IF;
    RETURN NULL;
END
$$;


ALTER FUNCTION public.data_version_bump() OWNER TO portal_auth;

--
-- Name: exam_changes(bigint, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.exam_changes(p_exam bigint, p_since timestamp with time zone) RETURNS TABLE(id uuid, removed boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT q.id, (q.deleted_at IS NOT NULL OR q.status <> 'published' OR q.exam_only)
    FROM public.questions q JOIN public.domains d ON d.id = q.domain_id
    -- Five minutes of overlap: an edit in a transaction that began before the version was taken
    -- still reaches the client (sending an unchanged question again is harmless).
    WHERE d.exam_id = p_exam AND q.updated_at > p_since - interval '5 minutes'
$$;


ALTER FUNCTION public.exam_changes(p_exam bigint, p_since timestamp with time zone) OWNER TO portal_auth;

--
-- Name: exams_touch_from_domains(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.exams_touch_from_domains() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    UPDATE exams SET content_updated_at = clock_timestamp() WHERE id IN (SELECT exam_id FROM changed_rows);
    RETURN NULL;
END
$$;


ALTER FUNCTION public.exams_touch_from_domains() OWNER TO portal_owner;

--
-- Name: exams_touch_from_questions(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.exams_touch_from_questions() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    UPDATE exams SET content_updated_at = clock_timestamp()
    WHERE id IN (SELECT d.exam_id FROM changed_rows c JOIN domains d ON d.id = c.domain_id);
    RETURN NULL;
END
$$;


ALTER FUNCTION public.exams_touch_from_questions() OWNER TO portal_owner;

--
-- Name: exams_touch_self(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.exams_touch_self() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF NEW.content_updated_at IS NOT DISTINCT FROM OLD.content_updated_at THEN
        NEW.content_updated_at := clock_timestamp();
    END IF;
    RETURN NEW;
END
$$;


ALTER FUNCTION public.exams_touch_self() OWNER TO portal_owner;

--
-- Name: external_account(text, text, text, text, text, boolean, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.external_account(p_kind text, p_issuer text, p_subject text, p_name text, p_fallback text, p_teacher boolean, p_at timestamp with time zone, OUT id uuid, OUT disabled boolean) RETURNS record
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
#variable_conflict use_column
DECLARE
    account record;
BEGIN
    SELECT u.id, u.role, u.disabled_at INTO account FROM public.external_identities i JOIN public.users u ON u.id = i.user_id
    WHERE i.kind = p_kind AND i.issuer = p_issuer AND i.subject = p_subject;
    IF NOT FOUND THEN
        INSERT INTO public.users (username, display_name, password_hash, role)
        VALUES (p_kind || '-' || replace(gen_random_uuid()::text, '-', ''), coalesce(nullif(btrim(left(p_name, 80)), ''), p_fallback), NULL,
                CASE WHEN p_teacher THEN 'teacher' ELSE 'student' END)
        RETURNING users.id, users.role, users.disabled_at INTO account;
        INSERT INTO public.external_identities (kind, issuer, subject, user_id) VALUES (p_kind, p_issuer, p_subject, account.id);
    ELSIF account.disabled_at IS NULL THEN
        UPDATE public.external_identities i SET last_used_at = p_at WHERE i.kind = p_kind AND i.issuer = p_issuer AND i.subject = p_subject;
        IF p_teacher AND account.role = 'student' THEN
            UPDATE public.users u SET role = 'teacher' WHERE u.id = account.id;
        END IF;
    END IF;
    id := account.id;
    disabled := account.disabled_at IS NOT NULL;
END
$$;


ALTER FUNCTION public.external_account(p_kind text, p_issuer text, p_subject text, p_name text, p_fallback text, p_teacher boolean, p_at timestamp with time zone, OUT id uuid, OUT disabled boolean) OWNER TO portal_auth;

--
-- Name: fill_in_matches(text, text, double precision, text, double precision); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.fill_in_matches(p_rule text, p_typed text, p_typed_number double precision, p_expected text, p_tolerance double precision) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT CASE p_rule
        WHEN 'exact' THEN public.fill_in_normalized(p_expected) = p_typed
        WHEN 'case-insensitive' THEN lower(public.fill_in_normalized(p_expected) COLLATE "und-x-icu") = lower(p_typed COLLATE "und-x-icu")
        ELSE coalesce(abs(p_typed_number - public.fill_in_number(public.fill_in_normalized(p_expected))) <= p_tolerance, false)
    END
$$;


ALTER FUNCTION public.fill_in_matches(p_rule text, p_typed text, p_typed_number double precision, p_expected text, p_tolerance double precision) OWNER TO portal_owner;

--
-- Name: fill_in_normalized(text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.fill_in_normalized(p_text text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
BEGIN
    -- PL/pgSQL, like response_shape_ok: its plan is kept rather than parsed again per call.
    RETURN regexp_replace(
        regexp_replace(normalize(p_text, NFC),
                       '^[ \t\n\r\v\f\u00a0\u2000-\u200a\u202f\u205f\u3000]+|[ \t\n\r\v\f\u00a0\u2000-\u200a\u202f\u205f\u3000]+$', '', 'g'),
        '[ \t\n\r\v\f\u00a0\u2000-\u200a\u202f\u205f\u3000]+', ' ', 'g');
END
$_$;


ALTER FUNCTION public.fill_in_normalized(p_text text) OWNER TO portal_owner;

--
-- Name: fill_in_number(text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.fill_in_number(p_text text) RETURNS double precision
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    t text := translate(p_text, '０１２３４５６７８９．，＋－−', '0123456789.,+--');
BEGIN
    IF strpos(t, ',') > 0 THEN
        IF strpos(t, '.') > 0 THEN
            RETURN NULL;
        END IF;
        t := replace(t, ',', '.');
    END IF;
    IF t !~ '^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$' THEN
        RETURN NULL;
    END IF;
    RETURN t::double precision;
END
$_$;


ALTER FUNCTION public.fill_in_number(p_text text) OWNER TO portal_owner;

--
-- Name: finish_study_session(uuid, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.finish_study_session(p_session uuid, p_at timestamp with time zone) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    guest bytea := public.app_guest_key();
    sess record;
    ended timestamptz;
    total integer;
    right_answers integer;
    final record;
BEGIN
    SELECT s.id, s.question_ids, s.started_at, s.deadline_at, s.mode, e.pass_mark INTO sess
    FROM public.study_sessions s JOIN public.exams e ON e.id = s.exam_id
    WHERE s.id = p_session AND s.finished_at IS NULL
      AND ((s.user_id IS NOT NULL AND s.user_id = me) OR (s.user_id IS NULL AND me IS NULL AND s.guest_key = guest))
    FOR UPDATE OF s;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    ended := least(greatest(COALESCE(p_at, now_at), sess.started_at), greatest(now_at, sess.started_at));
    IF sess.deadline_at IS NOT NULL THEN
        ended := least(ended, sess.deadline_at);
    END IF;
    total := cardinality(sess.question_ids);
    SELECT count(*) FILTER (WHERE c.correct) INTO right_answers
    FROM public.counted_answers c
    WHERE c.session_id = p_session AND c.question_id = ANY (sess.question_ids);
    UPDATE public.study_sessions
    SET finished_at = ended, score_correct = right_answers,
        score_percent = round(right_answers * 100.0 / total, 2),
        passed = total > 0 AND right_answers * 100 >= sess.pass_mark * total
    WHERE id = p_session;
    IF sess.mode = 'mock' AND me IS NOT NULL THEN
        -- In the order review_history replays them; after a card reviewed later than the exam
        -- ended (a deadline passed while the student practised), the whole history instead.
        IF EXISTS (SELECT 1 FROM public.review_cards c WHERE c.user_id = me AND c.last_review > ended) THEN
            PERFORM public.review_card_rebuild(me, NULL);
        ELSE
            FOR final IN
                SELECT f.question_id, f.rating
                FROM public.counted_answers f
                WHERE f.session_id = p_session AND f.question_id = ANY (sess.question_ids) AND f.rating IS NOT NULL
                ORDER BY f.answered_at, f.id
            LOOP
                PERFORM public.review_card_apply(me, final.question_id, final.rating, ended);
            END LOOP;
        END IF;
    END IF;
    RETURN true;
END
$$;


ALTER FUNCTION public.finish_study_session(p_session uuid, p_at timestamp with time zone) OWNER TO portal_auth;

--
-- Name: first_mock_items(bigint); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.first_mock_items(p_exam bigint) RETURNS TABLE(session_id uuid, exam_id bigint, question_id uuid, correct boolean, response jsonb, time_ms integer)
    LANGUAGE sql STABLE
    AS $$
    WITH first_attempts AS (
        SELECT DISTINCT ON (coalesce(s.user_id, s.anonymous_key), s.exam_id) s.id, s.exam_id, s.question_ids
        FROM public.study_sessions s
        WHERE s.mode = 'mock' AND s.finished_at IS NOT NULL AND (s.user_id IS NOT NULL OR s.anonymous_key IS NOT NULL)
          AND coalesce(s.config->>'length', 'full') = 'full' AND NOT s.set_aside AND (p_exam IS NULL OR s.exam_id = p_exam)
        ORDER BY coalesce(s.user_id, s.anonymous_key), s.exam_id, s.started_at, s.id
    ), final_answers AS (
        SELECT c.session_id, c.question_id, c.correct, c.response, c.time_ms
        FROM public.counted_answers c JOIN first_attempts f ON f.id = c.session_id
    )
    SELECT f.id, f.exam_id, item.question_id, coalesce(x.correct, false), x.response, x.time_ms
    FROM first_attempts f CROSS JOIN LATERAL unnest(f.question_ids) AS item(question_id)
    LEFT JOIN final_answers x ON x.session_id = f.id AND x.question_id = item.question_id
$$;


ALTER FUNCTION public.first_mock_items(p_exam bigint) OWNER TO portal_owner;

--
-- Name: form_send_begin(text, interval); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.form_send_begin(p_token text, p_fresh_for interval DEFAULT NULL::interval) RETURNS TABLE(state text, location text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
#variable_conflict use_column
DECLARE
    me uuid := public.app_user_id();
    guest bytea := CASE WHEN public.app_user_id() IS NULL THEN public.app_guest_key() END;
    token bytea := sha256(convert_to(coalesce(p_token, ''), 'UTF8'));
    earlier record;
BEGIN
    IF (me IS NULL AND guest IS NULL) OR length(coalesce(p_token, '')) NOT BETWEEN 20 AND 100 THEN
        RETURN QUERY SELECT 'foreign'::text, NULL::text;
        RETURN;
    END IF;
    INSERT INTO public.form_sends (token_hash, user_id, guest_hash, created_at)
    VALUES (token, me, guest, public.app_now())
    ON CONFLICT (token_hash) DO NOTHING;
    IF FOUND THEN
        RETURN QUERY SELECT 'new'::text, NULL::text;
        RETURN;
    END IF;
    SELECT f.* INTO earlier FROM public.form_sends f WHERE f.token_hash = token FOR UPDATE;
    IF earlier.user_id IS NOT DISTINCT FROM me AND earlier.guest_hash IS NOT DISTINCT FROM guest
       AND p_fresh_for IS NOT NULL AND earlier.created_at < public.app_now() - p_fresh_for THEN
        UPDATE public.form_sends f SET created_at = public.app_now(), location = NULL WHERE f.token_hash = token;
        RETURN QUERY SELECT 'new'::text, NULL::text;
    ELSIF earlier.user_id IS NOT DISTINCT FROM me AND earlier.guest_hash IS NOT DISTINCT FROM guest THEN
        RETURN QUERY SELECT 'sent'::text, earlier.location;
    ELSE
        RETURN QUERY SELECT 'foreign'::text, NULL::text;
    END IF;
END
$$;


ALTER FUNCTION public.form_send_begin(p_token text, p_fresh_for interval) OWNER TO portal_auth;

--
-- Name: form_send_done(text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.form_send_done(p_token text, p_location text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE public.form_sends f SET location = p_location
    WHERE f.token_hash = sha256(convert_to(p_token, 'UTF8'))
      AND f.user_id IS NOT DISTINCT FROM public.app_user_id()
      AND f.guest_hash IS NOT DISTINCT FROM (CASE WHEN public.app_user_id() IS NULL THEN public.app_guest_key() END)
$$;


ALTER FUNCTION public.form_send_done(p_token text, p_location text) OWNER TO portal_auth;

--
-- Name: fsrs_default_weights(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.fsrs_default_weights() RETURNS double precision[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT ARRAY[0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614,
                 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542]::double precision[]
$$;


ALTER FUNCTION public.fsrs_default_weights() OWNER TO portal_owner;

--
-- Name: fsrs_interval_days(double precision, double precision, double precision, double precision); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.fsrs_interval_days(p_stability double precision, p_factor double precision, p_decay double precision, p_retention double precision) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT least(greatest(1, floor(p_stability / p_factor * (power(p_retention, 1 / p_decay) - 1) + 0.5)::integer), 36500)
$$;


ALTER FUNCTION public.fsrs_interval_days(p_stability double precision, p_factor double precision, p_decay double precision, p_retention double precision) OWNER TO portal_owner;

--
-- Name: fsrs_retrievability(double precision, timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone) RETURNS double precision
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT pg_catalog.power(1 + (pg_catalog.power(0.9::double precision, 1 / -0.1542::double precision) - 1)
                 * greatest(0, pg_catalog.floor(extract(epoch FROM at - last_review) / 86400)) / stability, -0.1542::double precision)
$$;


ALTER FUNCTION public.fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone) OWNER TO portal_owner;

--
-- Name: fsrs_retrievability(double precision, timestamp with time zone, timestamp with time zone, double precision); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone, decay double precision) RETURNS double precision
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT pg_catalog.power(1 + (pg_catalog.power(0.9::double precision, 1 / -decay) - 1)
                 * greatest(0, pg_catalog.floor(extract(epoch FROM at - last_review) / 86400)) / stability, -decay)
$$;


ALTER FUNCTION public.fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone, decay double precision) OWNER TO portal_owner;

--
-- Name: fsrs_review(text, integer, double precision, double precision, timestamp with time zone, integer, timestamp with time zone, double precision[], double precision); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.fsrs_review(p_state text, p_step integer, p_stability double precision, p_difficulty double precision, p_last_review timestamp with time zone, p_rating integer, p_at timestamp with time zone, p_weights double precision[], p_retention double precision, OUT state text, OUT step integer, OUT stability double precision, OUT difficulty double precision, OUT due timestamp with time zone) RETURNS record
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    w double precision[] := p_weights;
    grade double precision := p_rating;
    decay double precision := -p_weights[21];
    factor double precision := power(0.9::double precision, 1 / -p_weights[21]) - 1;
    days_since integer;
    recall double precision;
    steps double precision[];
    current_step integer;
    interval_seconds double precision;
    graduate boolean := false;
    increase double precision;
    delta double precision;
    damped double precision;
    long_term double precision;
BEGIN
    state := p_state;
    step := p_step;
    stability := p_stability;
    difficulty := p_difficulty;
    -- The memory's update: a first review takes the initial values; a review within the day the
    -- short-term stability; any other the long-term one, from the recall before it.
    IF p_stability IS NOT NULL AND p_difficulty IS NOT NULL THEN
        days_since := floor(extract(epoch FROM p_at - p_last_review) / 86400);
        IF days_since < 1 THEN
            increase := exp(w[18] * (grade - 3 + w[19])) * power(p_stability, -w[20]);
            IF grade >= 2 THEN
                increase := greatest(increase, 1);
            END IF;
            stability := greatest(p_stability * increase, 0.001);
        ELSE
            recall := power(1 + factor * greatest(0, days_since) / p_stability, decay);
            IF p_rating = 1 THEN
                long_term := w[12] * power(p_difficulty, -w[13]) * (power(p_stability + 1, w[14]) - 1) * exp((1 - recall) * w[15]);
                stability := greatest(least(long_term, p_stability / exp(w[18] * w[19])), 0.001);
            ELSE
                stability := greatest(p_stability * (1 + exp(w[9]) * (11 - p_difficulty) * power(p_stability, -w[10])
                    * (exp((1 - recall) * w[11]) - 1)
                    * CASE WHEN p_rating = 2 THEN w[16] ELSE 1 END * CASE WHEN p_rating = 4 THEN w[17] ELSE 1 END), 0.001);
            END IF;
        END IF;
        delta := -(w[7] * (grade - 3));
        damped := p_difficulty + (10 - p_difficulty) * delta / 9;
        difficulty := least(greatest(w[8] * (w[5] - exp(w[6] * 3) + 1) + (1 - w[8]) * damped, 1), 10);
    ELSE
        stability := greatest(w[p_rating], 0.001);
        difficulty := least(greatest(w[5] - exp(w[6] * (grade - 1)) + 1, 1), 10);
    END IF;

    IF p_state IN ('learning', 'relearning') THEN
        steps := CASE WHEN p_state = 'learning' THEN ARRAY[60, 600]::double precision[] ELSE ARRAY[600]::double precision[] END;
        current_step := coalesce(p_step, 0);
        IF current_step >= cardinality(steps) AND p_rating <> 1 THEN
            graduate := true;
        ELSIF p_rating = 1 THEN
            step := 0;
            interval_seconds := steps[1];
        ELSIF p_rating = 2 THEN
            interval_seconds := CASE WHEN current_step = 0 AND cardinality(steps) = 1 THEN steps[1] * 1.5
                                     WHEN current_step = 0 THEN (steps[1] + steps[2]) / 2
                                     ELSE steps[current_step + 1] END;
        ELSIF p_rating = 3 THEN
            IF current_step + 1 = cardinality(steps) THEN
                graduate := true;
            ELSE
                step := current_step + 1;
                interval_seconds := steps[current_step + 2];
            END IF;
        ELSE
            graduate := true;
        END IF;
    ELSIF p_rating = 1 THEN
        state := 'relearning';
        step := 0;
        interval_seconds := 600;
    ELSE
        graduate := false;
        interval_seconds := 86400::double precision * public.fsrs_interval_days(stability, factor, decay, p_retention);
    END IF;
    IF graduate THEN
        state := 'review';
        step := NULL;
        interval_seconds := 86400::double precision * public.fsrs_interval_days(stability, factor, decay, p_retention);
    END IF;
    due := p_at + make_interval(secs => interval_seconds);
END
$$;


ALTER FUNCTION public.fsrs_review(p_state text, p_step integer, p_stability double precision, p_difficulty double precision, p_last_review timestamp with time zone, p_rating integer, p_at timestamp with time zone, p_weights double precision[], p_retention double precision, OUT state text, OUT step integer, OUT stability double precision, OUT difficulty double precision, OUT due timestamp with time zone) OWNER TO portal_owner;

--
-- Name: fsrs_weights_within_bounds(double precision[]); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.fsrs_weights_within_bounds(weights double precision[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog'
    AS $$
    SELECT cardinality(weights) = 21 AND array_ndims(weights) = 1 AND NOT EXISTS (
        SELECT 1 FROM unnest(weights,
            ARRAY[0.001, 0.001, 0.001, 0.001, 1, 0.001, 0.001, 0.001, 0, 0, 0.001, 0.001, 0.001, 0.001, 0, 0, 1, 0, 0, 0, 0.1]::double precision[],
            ARRAY[100, 100, 100, 100, 10, 4, 4, 0.75, 4.5, 0.8, 3.5, 5, 0.25, 0.9, 4, 1, 6, 2, 2, 0.8, 0.8]::double precision[])
            AS w(value, low, high)
        WHERE w.value IS NULL OR w.value = 'NaN' OR w.value < w.low OR w.value > w.high)
$$;


ALTER FUNCTION public.fsrs_weights_within_bounds(weights double precision[]) OWNER TO portal_owner;

--
-- Name: hotspot_contains(jsonb, double precision, double precision); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.hotspot_contains(p_region jsonb, x double precision, y double precision) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    c double precision[] := ARRAY(SELECT v::double precision FROM jsonb_array_elements_text(p_region -> 'coords') AS v);
    n integer;
    i integer;
    j integer;
    inside boolean := false;
    dx double precision;
    dy double precision;
BEGIN
    IF NOT public.hotspot_well_formed(p_region ->> 'shape', c) THEN
        RETURN false;
    END IF;
    IF p_region ->> 'shape' = 'rect' THEN
        RETURN x >= c[1] AND x <= c[3] AND y >= c[2] AND y <= c[4];
    ELSIF p_region ->> 'shape' = 'circle' THEN
        dx := x - c[1];
        dy := y - c[2];
        RETURN dx * dx + dy * dy <= c[3] * c[3];
    END IF;
    n := cardinality(c) / 2;
    j := n - 1;
    FOR i IN 0 .. n - 1 LOOP
        IF (c[2 * i + 2] > y) <> (c[2 * j + 2] > y)
           AND x < (c[2 * j + 1] - c[2 * i + 1]) * (y - c[2 * i + 2]) / (c[2 * j + 2] - c[2 * i + 2]) + c[2 * i + 1] THEN
            inside := NOT inside;
        END IF;
        j := i;
    END LOOP;
    RETURN inside;
END
$$;


ALTER FUNCTION public.hotspot_contains(p_region jsonb, x double precision, y double precision) OWNER TO portal_owner;

--
-- Name: hotspot_well_formed(text, double precision[]); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.hotspot_well_formed(p_shape text, p_coords double precision[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT NOT EXISTS (SELECT 1 FROM unnest(p_coords) AS c WHERE c < 0 OR c > 100000 OR c = 'NaN'::double precision)
       AND CASE p_shape
           WHEN 'rect' THEN cardinality(p_coords) = 4 AND p_coords[1] < p_coords[3] AND p_coords[2] < p_coords[4]
           WHEN 'circle' THEN cardinality(p_coords) = 3 AND p_coords[3] > 0
           WHEN 'polygon' THEN cardinality(p_coords) % 2 = 0 AND cardinality(p_coords) BETWEEN 6 AND 100
           ELSE false END
$$;


ALTER FUNCTION public.hotspot_well_formed(p_shape text, p_coords double precision[]) OWNER TO portal_owner;

--
-- Name: in_class(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.in_class(p_class uuid) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT p_class = ANY (public.app_member_classes())
$$;


ALTER FUNCTION public.in_class(p_class uuid) OWNER TO portal_auth;

--
-- Name: join_class(text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.join_class(p_code text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
    joined_class uuid;
BEGIN
    IF me IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT c.id INTO joined_class FROM public.classes c WHERE c.join_code = upper(btrim(p_code));
    IF joined_class IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO public.class_members AS m (class_id, user_id, joined_at) VALUES (joined_class, me, public.app_now())
    ON CONFLICT (class_id, user_id) DO UPDATE SET left_at = NULL, joined_at = EXCLUDED.joined_at WHERE m.left_at IS NOT NULL;
    RETURN joined_class;
END
$$;


ALTER FUNCTION public.join_class(p_code text) OWNER TO portal_auth;

--
-- Name: join_class_by_link(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.join_class_by_link(p_link uuid) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
    joined_class uuid;
BEGIN
    SELECT l.class_id INTO joined_class FROM public.share_links l
    WHERE l.id = p_link AND l.joins_class AND l.revoked_at IS NULL AND (l.expires_at IS NULL OR l.expires_at > public.app_now());
    IF me IS NULL OR joined_class IS NULL THEN
        RETURN false;
    END IF;
    INSERT INTO public.class_members AS m (class_id, user_id, joined_at) VALUES (joined_class, me, public.app_now())
    ON CONFLICT (class_id, user_id) DO UPDATE SET left_at = NULL, joined_at = EXCLUDED.joined_at WHERE m.left_at IS NOT NULL;
    RETURN true;
END
$$;


ALTER FUNCTION public.join_class_by_link(p_link uuid) OWNER TO portal_auth;

--
-- Name: jwt_display_name(jsonb); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.jwt_display_name(p_claims jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT left(btrim(coalesce(
        CASE WHEN jsonb_typeof(p_claims->'name') = 'string' THEN p_claims->>'name' END,
        concat_ws(' ', CASE WHEN jsonb_typeof(p_claims->'given_name') = 'string' THEN p_claims->>'given_name' END,
                       CASE WHEN jsonb_typeof(p_claims->'family_name') = 'string' THEN p_claims->>'family_name' END))), 80)
$$;


ALTER FUNCTION public.jwt_display_name(p_claims jsonb) OWNER TO portal_owner;

--
-- Name: jwt_meant_for(jsonb, text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.jwt_meant_for(p_claims jsonb, p_client text) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT CASE jsonb_typeof(p_claims->'aud')
        WHEN 'string' THEN p_claims->>'aud' = p_client
        WHEN 'array' THEN p_claims->'aud' @> to_jsonb(p_client)
            AND (jsonb_array_length(p_claims->'aud') = 1 OR p_claims ? 'azp')
        ELSE false END
        AND (NOT p_claims ? 'azp' OR p_claims->>'azp' = p_client)
$$;


ALTER FUNCTION public.jwt_meant_for(p_claims jsonb, p_client text) OWNER TO portal_owner;

--
-- Name: jwt_verified(text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.jwt_verified(p_token text, p_jwks_uri text, OUT outcome text, OUT claims jsonb, OUT problem text) RETURNS record
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    parts text[];
    header jsonb;
    signature bytea;
    key record;
    key_set record;
    now_epoch numeric := extract(epoch FROM public.app_now());
BEGIN
    parts := string_to_array(p_token, '.');
    IF length(p_token) > 16384 OR cardinality(parts) <> 3 THEN
        outcome := 'malformed';
        RETURN;
    END IF;
    BEGIN
        header := convert_from(public.base64url_bytes(parts[1]), 'UTF8')::jsonb;
        claims := convert_from(public.base64url_bytes(parts[2]), 'UTF8')::jsonb;
    EXCEPTION WHEN OTHERS THEN
        outcome := 'malformed';
        claims := NULL;
        RETURN;
    END;
    signature := public.base64url_bytes(parts[3]);
    IF header IS NULL OR claims IS NULL OR signature IS NULL OR jsonb_typeof(header) <> 'object' OR jsonb_typeof(claims) <> 'object' THEN
        outcome := 'malformed';
        claims := NULL;
        RETURN;
    END IF;
    IF header->>'alg' IS DISTINCT FROM 'RS256' THEN
        outcome := 'algorithm';
        problem := left(coalesce(header->>'alg', 'none given'), 20);
        claims := NULL;
        RETURN;
    END IF;
    SELECT k.* INTO key FROM public.key_set_keys k WHERE k.jwks_uri = p_jwks_uri AND k.kid = header->>'kid';
    IF NOT FOUND THEN
        SELECT s.* INTO key_set FROM public.key_sets s WHERE s.jwks_uri = p_jwks_uri;
        IF FOUND AND key_set.failed_at IS NOT NULL AND key_set.failed_at > coalesce(key_set.fetched_at, '-infinity')
           AND key_set.failed_at > public.app_now() - interval '1 minute' THEN
            outcome := 'keys_unreachable';
            problem := key_set.problem;
        ELSIF FOUND AND key_set.fetched_at > public.app_now() - interval '10 seconds' THEN
            -- Fetched just now, and the key is not in it: the token is not the issuer's.
            outcome := 'unknown_key';
            problem := left(coalesce(header->>'kid', 'none given'), 80);
        ELSIF FOUND AND key_set.wanted_at < public.app_now() - interval '30 seconds'
              AND key_set.wanted_at > coalesce(key_set.fetched_at, '-infinity') THEN
            outcome := 'keys_unreachable';
            problem := 'the key set has not been fetched in time (is portal auth-agent running?)';
        ELSE
            outcome := 'keys_pending';
            problem := left(coalesce(header->>'kid', 'none given'), 80);
        END IF;
        claims := NULL;
        RETURN;
    END IF;
    IF NOT public.rs256_verifies(parts[1] || '.' || parts[2], signature, key.modulus, key.exponent, key.octets) THEN
        outcome := 'bad_signature';
        claims := NULL;
        RETURN;
    END IF;
    IF jsonb_typeof(claims->'exp') <> 'number' OR (claims->>'exp')::numeric + 60 < now_epoch THEN
        outcome := 'expired';
    ELSIF (jsonb_typeof(claims->'iat') = 'number' AND (claims->>'iat')::numeric > now_epoch + 60)
       OR (jsonb_typeof(claims->'nbf') = 'number' AND (claims->>'nbf')::numeric > now_epoch + 60) THEN
        outcome := 'not_yet_valid';
    ELSE
        outcome := 'ok';
        RETURN;
    END IF;
    claims := NULL;
END
$$;


ALTER FUNCTION public.jwt_verified(p_token text, p_jwks_uri text, OUT outcome text, OUT claims jsonb, OUT problem text) OWNER TO portal_auth;

--
-- Name: key_set_failed(text, text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.key_set_failed(p_jwks_uri text, p_problem text) RETURNS void
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE public.key_sets s SET failed_at = public.app_now(), problem = left(p_problem, 500), leased_until = NULL WHERE s.jwks_uri = p_jwks_uri
$$;


ALTER FUNCTION public.key_set_failed(p_jwks_uri text, p_problem text) OWNER TO portal_owner;

--
-- Name: key_set_store(text, jsonb); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.key_set_store(p_jwks_uri text, p_set jsonb) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    stored integer;
BEGIN
    INSERT INTO public.key_sets (jwks_uri) VALUES (p_jwks_uri) ON CONFLICT DO NOTHING;
    DELETE FROM public.key_set_keys k WHERE k.jwks_uri = p_jwks_uri;
    INSERT INTO public.key_set_keys (jwks_uri, kid, modulus, exponent, octets)
    SELECT DISTINCT ON (key->>'kid') p_jwks_uri, key->>'kid', public.bytes_numeric(n), public.bytes_numeric(e),
           octet_length(n) - CASE WHEN get_byte(n, 0) = 0 THEN 1 ELSE 0 END
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p_set->'keys') = 'array' THEN p_set->'keys' ELSE '[]'::jsonb END) key,
         LATERAL (SELECT public.base64url_bytes(key->>'n') AS n, public.base64url_bytes(key->>'e') AS e) raw
    WHERE key->>'kty' = 'RSA' AND coalesce(key->>'use', 'sig') = 'sig' AND length(key->>'kid') BETWEEN 1 AND 200
      AND raw.n IS NOT NULL AND raw.e IS NOT NULL AND octet_length(raw.n) BETWEEN 256 AND 1025 AND octet_length(raw.e) BETWEEN 1 AND 8
      AND (key->>'alg' IS NULL OR key->>'alg' = 'RS256');
    GET DIAGNOSTICS stored = ROW_COUNT;
    UPDATE public.key_sets s SET fetched_at = now_at, failed_at = NULL, problem = NULL, leased_until = NULL WHERE s.jwks_uri = p_jwks_uri;
    RETURN stored;
END
$$;


ALTER FUNCTION public.key_set_store(p_jwks_uri text, p_set jsonb) OWNER TO portal_owner;

--
-- Name: key_set_wanted(text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.key_set_wanted(p_jwks_uri text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.lti_platforms p WHERE p.jwks_url = p_jwks_uri)
       AND NOT EXISTS (SELECT 1 FROM public.sso_providers p WHERE p.jwks_uri = p_jwks_uri) THEN
        RETURN;
    END IF;
    INSERT INTO public.key_sets (jwks_uri) VALUES (p_jwks_uri) ON CONFLICT DO NOTHING;
    UPDATE public.key_sets s SET wanted_at = now_at
    WHERE s.jwks_uri = p_jwks_uri AND (s.wanted_at IS NULL OR s.wanted_at < now_at - interval '10 seconds');
    IF FOUND THEN
        PERFORM pg_notify('key_sets', '');
    END IF;
END
$$;


ALTER FUNCTION public.key_set_wanted(p_jwks_uri text) OWNER TO portal_auth;

--
-- Name: key_sets_due(integer); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.key_sets_due(p_limit integer) RETURNS SETOF text
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
BEGIN
    INSERT INTO public.key_sets (jwks_uri)
    SELECT p.jwks_url FROM public.lti_platforms p UNION SELECT p.jwks_uri FROM public.sso_providers p
    ON CONFLICT DO NOTHING;
    RETURN QUERY
    WITH due AS (
        SELECT s.jwks_uri FROM public.key_sets s
        WHERE (s.leased_until IS NULL OR s.leased_until < now_at)
          AND (s.failed_at IS NULL OR s.failed_at < now_at - interval '1 minute')
          AND (s.fetched_at IS NULL OR s.fetched_at < now_at - interval '1 hour'
               OR (s.wanted_at > s.fetched_at AND s.fetched_at < now_at - interval '10 seconds'))
          AND (EXISTS (SELECT 1 FROM public.lti_platforms p WHERE p.jwks_url = s.jwks_uri)
               OR EXISTS (SELECT 1 FROM public.sso_providers p WHERE p.jwks_uri = s.jwks_uri))
        ORDER BY s.wanted_at DESC NULLS LAST, s.fetched_at NULLS FIRST LIMIT p_limit
        FOR UPDATE SKIP LOCKED
    )
    UPDATE public.key_sets s SET leased_until = now_at + interval '30 seconds' FROM due WHERE s.jwks_uri = due.jwks_uri
    RETURNING s.jwks_uri;
END
$$;


ALTER FUNCTION public.key_sets_due(p_limit integer) OWNER TO portal_owner;

--
-- Name: key_sets_registered(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.key_sets_registered() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM pg_notify('key_sets', '');
    RETURN NULL;
END
$$;


ALTER FUNCTION public.key_sets_registered() OWNER TO portal_owner;

--
-- Name: leaderboard_around_viewer(bigint, text, integer); Type: FUNCTION; Schema: public; Owner: portal_leaderboard
--

CREATE FUNCTION public.leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer) RETURNS TABLE(place bigint, rank bigint, display_name text, points bigint, sessions bigint, answered bigint, correct bigint, is_viewer boolean)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
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
$$;


ALTER FUNCTION public.leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer) OWNER TO portal_leaderboard;

--
-- Name: leaderboard_page(bigint, text, integer, integer); Type: FUNCTION; Schema: public; Owner: portal_leaderboard
--

CREATE FUNCTION public.leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer) RETURNS TABLE(place bigint, rank bigint, display_name text, points bigint, sessions bigint, answered bigint, correct bigint, is_viewer boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT e.place, e.rank, e.display_name, e.points, e.sessions, e.answered, e.correct,
           coalesce(e.user_id = (SELECT public.app_user_id()), false)
    FROM public.leaderboard_entries e
    WHERE e.exam_id = p_exam AND e.period = p_period
      AND e.place > greatest(p_offset, 0) AND e.place <= greatest(p_offset, 0) + least(greatest(p_limit, 0), 100)
    ORDER BY e.place
$$;


ALTER FUNCTION public.leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer) OWNER TO portal_leaderboard;

--
-- Name: leaderboard_refresh(interval, text); Type: FUNCTION; Schema: public; Owner: portal_leaderboard
--

CREATE FUNCTION public.leaderboard_refresh(p_every interval, p_instance text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    SET statement_timeout TO '10min'
    AS $$
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
$$;


ALTER FUNCTION public.leaderboard_refresh(p_every interval, p_instance text) OWNER TO portal_leaderboard;

--
-- Name: leaderboard_refreshed_at(); Type: FUNCTION; Schema: public; Owner: portal_leaderboard
--

CREATE FUNCTION public.leaderboard_refreshed_at() RETURNS timestamp with time zone
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT max(r.refreshed_at) FROM public.leaderboard_refreshes r
$$;


ALTER FUNCTION public.leaderboard_refreshed_at() OWNER TO portal_leaderboard;

--
-- Name: leaderboard_size(bigint, text); Type: FUNCTION; Schema: public; Owner: portal_leaderboard
--

CREATE FUNCTION public.leaderboard_size(p_exam bigint, p_period text) RETURNS bigint
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    -- Places run 1…n without gaps, so the last place is the count: one index probe.
    SELECT coalesce(max(e.place), 0) FROM public.leaderboard_entries e WHERE e.exam_id = p_exam AND e.period = p_period
$$;


ALTER FUNCTION public.leaderboard_size(p_exam bigint, p_period text) OWNER TO portal_leaderboard;

--
-- Name: live_answer_run_bonus(integer); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.live_answer_run_bonus(p_run integer) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT least(250, 50 * greatest(0, p_run - 1))
$$;


ALTER FUNCTION public.live_answer_run_bonus(p_run integer) OWNER TO portal_owner;

--
-- Name: live_answer_run_bonuses(integer); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.live_answer_run_bonuses(p_index integer) RETURNS integer[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT array_agg(public.live_answer_run_bonus(n) ORDER BY n) FROM generate_series(1, greatest(1, p_index + 1)) AS n
$$;


ALTER FUNCTION public.live_answer_run_bonuses(p_index integer) OWNER TO portal_owner;

--
-- Name: live_answers_admit(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.live_answers_admit() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
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
$$;


ALTER FUNCTION public.live_answers_admit() OWNER TO portal_owner;

--
-- Name: live_board(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.live_board(p_event uuid) RETURNS TABLE(participant_id uuid, nickname text, points integer, correct integer, streak integer, last_right integer)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
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
$$;


ALTER FUNCTION public.live_board(p_event uuid) OWNER TO portal_auth;

--
-- Name: live_is_host(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.live_is_host(p_event uuid) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT (SELECT public.app_role()) = 'admin' OR p_event = ANY (public.app_hosted_events())
$$;


ALTER FUNCTION public.live_is_host(p_event uuid) OWNER TO portal_auth;

--
-- Name: live_record_results(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.live_record_results(p_event uuid) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
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
$$;


ALTER FUNCTION public.live_record_results(p_event uuid) OWNER TO portal_auth;

--
-- Name: lti_add_key(text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO public.lti_tool_keys (kid, private_pem, modulus, exponent) VALUES (p_kid, p_private_pem, p_modulus, p_exponent)
    ON CONFLICT DO NOTHING;
    RETURN FOUND;
END
$$;


ALTER FUNCTION public.lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) OWNER TO portal_owner;

--
-- Name: lti_begin_login(bytea, text, bigint, text, bytea, bytea, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.lti_begin_login(p_state_hash bytea, p_nonce text, p_platform bigint, p_target text, p_cookie bytea, p_agent bytea, p_storage_target text, p_client text) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    wait integer;
BEGIN
    wait := public.rate_limit('lti_login', p_client, 60, 60, true);
    IF wait = 0 THEN
        wait := public.rate_limit('lti_login_all', '', 20000, 600, true);
    END IF;
    IF wait > 0 THEN
        RETURN wait;
    END IF;
    INSERT INTO public.lti_states (state_hash, nonce, platform_id, target_link_uri, browser_hash, cookie_hash, storage_target, created_at)
    VALUES (p_state_hash, p_nonce, p_platform, p_target, p_agent, p_cookie, p_storage_target, public.app_now());
    RETURN 0;
END
$$;


ALTER FUNCTION public.lti_begin_login(p_state_hash bytea, p_nonce text, p_platform bigint, p_target text, p_cookie bytea, p_agent bytea, p_storage_target text, p_client text) OWNER TO portal_auth;

--
-- Name: lti_deep_link(text, boolean); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.lti_deep_link(p_token text, p_use boolean) RETURNS TABLE(platform_id bigint, deployment_id text, return_url text, data text, accepts_line_item boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
#variable_conflict use_column
BEGIN
    IF p_use THEN
        RETURN QUERY UPDATE public.lti_deep_links l SET used_at = public.app_now()
            WHERE l.token_hash = sha256(convert_to(p_token, 'UTF8')) AND l.used_at IS NULL AND l.created_at > public.app_now() - interval '1 hour'
            RETURNING l.platform_id, l.deployment_id, l.return_url, l.data::text, l.accepts_line_item;
    ELSE
        RETURN QUERY SELECT l.platform_id, l.deployment_id, l.return_url, l.data::text, l.accepts_line_item FROM public.lti_deep_links l
            WHERE l.token_hash = sha256(convert_to(p_token, 'UTF8')) AND l.used_at IS NULL AND l.created_at > public.app_now() - interval '1 hour';
    END IF;
END
$$;


ALTER FUNCTION public.lti_deep_link(p_token text, p_use boolean) OWNER TO portal_auth;

--
-- Name: lti_offer_handoff(text, bytea, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.lti_offer_handoff(p_handoff text, p_browser bytea, p_location text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    current_hash bytea := sha256(convert_to(coalesce(current_setting('app.session_token', true), ''), 'UTF8'));
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.auth_sessions s WHERE s.token_hash = current_hash) THEN
        RETURN false;
    END IF;
    INSERT INTO public.lti_handoffs (token_hash, session_hash, browser_hash, location, created_at)
    VALUES (sha256(convert_to(p_handoff, 'UTF8')), current_hash, p_browser, p_location, public.app_now());
    RETURN true;
END
$$;


ALTER FUNCTION public.lti_offer_handoff(p_handoff text, p_browser bytea, p_location text) OWNER TO portal_auth;

--
-- Name: lti_public_keys(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.lti_public_keys() RETURNS TABLE(kid text, modulus text, exponent text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT k.kid, k.modulus, k.exponent FROM public.lti_tool_keys k
    WHERE k.retired_at IS NULL OR k.retired_at > now() - interval '7 days'
    ORDER BY k.created_at DESC, k.kid
$$;


ALTER FUNCTION public.lti_public_keys() OWNER TO portal_owner;

--
-- Name: lti_queue_score(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.lti_queue_score() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO public.lti_score_outbox (session_id, platform_id, lineitem_url, subject, score_given, score_maximum, finished_at, next_attempt_at)
    SELECT g.session_id, g.platform_id, g.lineitem_url, g.subject, NEW.score_percent, 100, NEW.finished_at, public.app_now()
    FROM public.lti_graded_sessions g WHERE g.session_id = NEW.id
    ON CONFLICT (session_id) DO NOTHING;
    RETURN NULL;
END
$$;


ALTER FUNCTION public.lti_queue_score() OWNER TO portal_auth;

--
-- Name: lti_roster_joined(uuid, text[]); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.lti_roster_joined(p_class uuid, p_subjects text[]) RETURNS text[]
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT coalesce(array_agg(i.subject), '{}')
    FROM public.lti_contexts c
    JOIN public.lti_platforms p ON p.id = c.platform_id
    JOIN public.classes k ON k.id = c.class_id
    JOIN public.external_identities i ON i.kind = 'lti' AND i.issuer = p.issuer AND i.subject = ANY (p_subjects)
    WHERE c.class_id = p_class AND k.teacher_id = public.app_user_id()
      AND (i.user_id = k.teacher_id
           OR EXISTS (SELECT 1 FROM public.class_members m WHERE m.class_id = c.class_id AND m.user_id = i.user_id AND m.left_at IS NULL))
$$;


ALTER FUNCTION public.lti_roster_joined(p_class uuid, p_subjects text[]) OWNER TO portal_auth;

--
-- Name: lti_rotate_key(text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.lti_rotate_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) RETURNS void
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE public.lti_tool_keys SET retired_at = now() WHERE retired_at IS NULL;
    INSERT INTO public.lti_tool_keys (kid, private_pem, modulus, exponent) VALUES (p_kid, p_private_pem, p_modulus, p_exponent);
$$;


ALTER FUNCTION public.lti_rotate_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) OWNER TO portal_owner;

--
-- Name: lti_score_failed(uuid, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.lti_score_failed(p_session uuid, p_error text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE public.lti_score_outbox
    SET attempts = attempts + 1, last_error = left(p_error, 500),
        next_attempt_at = public.app_now() + least(interval '1 hour', interval '30 seconds' * power(2, least(attempts, 10)))
    WHERE session_id = p_session AND sent_at IS NULL
$$;


ALTER FUNCTION public.lti_score_failed(p_session uuid, p_error text) OWNER TO portal_auth;

--
-- Name: lti_score_sent(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.lti_score_sent(p_session uuid) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE public.lti_score_outbox SET sent_at = public.app_now(), last_error = NULL WHERE session_id = p_session AND sent_at IS NULL
$$;


ALTER FUNCTION public.lti_score_sent(p_session uuid) OWNER TO portal_auth;

--
-- Name: lti_sign_in(text, text, text, bytea, bytea, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.lti_sign_in(p_state text, p_id_token text, p_binding text, p_cookie bytea, p_agent bytea, p_session text, p_csrf text, p_user_agent text) RETURNS TABLE(outcome text, user_id uuid, class_id uuid, platform_id bigint, claims jsonb, problem text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
#variable_conflict use_column
DECLARE
    lti constant text := 'https://purl.imsglobal.org/spec/lti/claim/';
    now_at timestamptz := public.app_now();
    state record;
    bound boolean;
    platform record;
    verified record;
    payload jsonb;
    deployment text;
    user_subject text;
    message_type text;
    is_teacher boolean;
    context_key text;
    context_name text;
    roster_url text;
    account record;
    course record;
    made_class uuid;
    join_code_text text;
BEGIN
    SELECT s.* INTO state FROM public.lti_states s WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'state_unknown', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    IF state.used_at IS NOT NULL THEN
        RETURN QUERY SELECT 'state_used', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    IF state.created_at < now_at - interval '10 minutes' THEN
        UPDATE public.lti_states s SET used_at = now_at WHERE s.state_hash = state.state_hash;
        RETURN QUERY SELECT 'state_expired', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    SELECT p.* INTO platform FROM public.lti_platforms p WHERE p.id = state.platform_id;
    -- The browser: its cookie when it came back; never a top-level window without it; in a
    -- frame, the platform's storage when the platform offered one, else the user agent and
    -- address (the last resort, for platforms without storage in browsers that drop the cookie).
    bound := CASE p_binding
        WHEN 'cookie' THEN state.cookie_hash IS NOT NULL AND state.cookie_hash = p_cookie
        WHEN 'storage' THEN state.storage_target IS NOT NULL
        WHEN 'framed' THEN state.storage_target IS NULL AND state.browser_hash = p_agent
        ELSE false END;
    IF NOT coalesce(bound, false) THEN
        IF p_binding = 'framed' AND state.storage_target IS NOT NULL THEN
            RETURN QUERY SELECT 'needs_storage', NULL::uuid, NULL::uuid, platform.id, jsonb_build_object('auth_url', platform.auth_url), state.storage_target;
            RETURN;
        END IF;
        UPDATE public.lti_states s SET used_at = now_at WHERE s.state_hash = state.state_hash;
        RETURN QUERY SELECT 'other_browser', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;

    SELECT v.* INTO verified FROM public.jwt_verified(p_id_token, platform.jwks_url) v;
    IF verified.outcome = 'keys_pending' THEN
        PERFORM public.key_set_wanted(platform.jwks_url);
        RETURN QUERY SELECT 'keys_pending', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, verified.problem;
        RETURN;
    END IF;
    UPDATE public.lti_states s SET used_at = now_at WHERE s.state_hash = state.state_hash;
    IF verified.outcome <> 'ok' THEN
        RETURN QUERY SELECT verified.outcome, NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, verified.problem;
        RETURN;
    END IF;
    payload := verified.claims;
    deployment := CASE WHEN jsonb_typeof(payload->(lti || 'deployment_id')) = 'string' THEN payload->>(lti || 'deployment_id') END;
    user_subject := CASE WHEN jsonb_typeof(payload->'sub') = 'string' THEN payload->>'sub' END;
    message_type := payload->>(lti || 'message_type');
    IF payload->>'iss' IS DISTINCT FROM platform.issuer THEN
        RETURN QUERY SELECT 'wrong_issuer', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(payload->>'iss', 200);
        RETURN;
    ELSIF NOT public.jwt_meant_for(payload, platform.client_id) THEN
        RETURN QUERY SELECT 'wrong_audience', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    ELSIF payload->>'nonce' IS DISTINCT FROM state.nonce THEN
        RETURN QUERY SELECT 'wrong_nonce', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    ELSIF payload->>(lti || 'version') IS DISTINCT FROM '1.3.0' THEN
        RETURN QUERY SELECT 'wrong_version', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(coalesce(payload->>(lti || 'version'), 'none'), 20);
        RETURN;
    ELSIF user_subject IS NULL OR length(user_subject) NOT BETWEEN 1 AND 255 THEN
        RETURN QUERY SELECT 'no_user', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    ELSIF deployment IS NULL OR NOT EXISTS (
        SELECT 1 FROM public.lti_deployments d WHERE d.platform_id = platform.id AND d.deployment_id = deployment) THEN
        RETURN QUERY SELECT 'unknown_deployment', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(coalesce(deployment, 'none'), 200);
        RETURN;
    ELSIF message_type IS NULL OR message_type NOT IN ('LtiResourceLinkRequest', 'LtiDeepLinkingRequest') THEN
        RETURN QUERY SELECT 'unknown_message', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(coalesce(message_type, 'none'), 60);
        RETURN;
    END IF;
    is_teacher := jsonb_typeof(payload->(lti || 'roles')) = 'array' AND EXISTS (
        SELECT 1 FROM jsonb_array_elements(payload->(lti || 'roles')) r
        WHERE jsonb_typeof(r) = 'string'
          AND reverse(split_part(reverse(r #>> '{}'), '#', 1)) IN ('Instructor', 'TeachingAssistant', 'ContentDeveloper', 'Administrator'));
    IF message_type = 'LtiDeepLinkingRequest' AND NOT is_teacher THEN
        RETURN QUERY SELECT 'deep_link_teachers', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    IF NOT public.token_first_use(p_id_token, payload) THEN
        RETURN QUERY SELECT 'replayed', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    UPDATE public.lti_states s SET signed_in_at = now_at WHERE s.state_hash = state.state_hash;
    IF jsonb_typeof(payload->(lti || 'context')) = 'object' AND jsonb_typeof(payload->(lti || 'context')->'id') = 'string'
       AND length(payload->(lti || 'context')->>'id') BETWEEN 1 AND 255 THEN
        context_key := payload->(lti || 'context')->>'id';
        context_name := coalesce(nullif(payload->(lti || 'context')->>'title', ''), payload->(lti || 'context')->>'label');
    END IF;
    roster_url := payload->'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice'->>'context_memberships_url';

    SELECT a.id, a.disabled INTO account
    FROM public.external_account('lti', platform.issuer, user_subject, public.jwt_display_name(payload), 'Learner', is_teacher, now_at) a;
    IF account.disabled THEN
        RETURN QUERY SELECT 'disabled', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;

    IF context_key IS NOT NULL THEN
        INSERT INTO public.lti_contexts (platform_id, context_id, title, memberships_url)
        VALUES (platform.id, context_key, coalesce(nullif(btrim(left(context_name, 120)), ''), 'Course'), roster_url)
        ON CONFLICT ON CONSTRAINT lti_contexts_pkey DO UPDATE SET memberships_url = coalesce(EXCLUDED.memberships_url, lti_contexts.memberships_url);
        SELECT c.class_id, c.title INTO course FROM public.lti_contexts c WHERE c.platform_id = platform.id AND c.context_id = context_key FOR UPDATE;
        made_class := course.class_id;
        IF made_class IS NULL AND is_teacher THEN
            LOOP
                join_code_text := (SELECT string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 1 + floor(random() * 32)::int, 1), '') FROM generate_series(1, 8));
                EXIT WHEN NOT EXISTS (SELECT 1 FROM public.classes c WHERE c.join_code = join_code_text);
            END LOOP;
            INSERT INTO public.classes (teacher_id, name, join_code, created_at) VALUES (account.id, course.title, join_code_text, now_at)
            RETURNING id INTO made_class;
            UPDATE public.lti_contexts c SET class_id = made_class WHERE c.platform_id = platform.id AND c.context_id = context_key;
            INSERT INTO public.class_members (class_id, user_id, joined_at)
            SELECT made_class, w.user_id, now_at FROM public.lti_context_learners w
            WHERE w.platform_id = platform.id AND w.context_id = context_key AND w.user_id <> account.id
            ON CONFLICT DO NOTHING;
            DELETE FROM public.lti_context_learners w WHERE w.platform_id = platform.id AND w.context_id = context_key;
        ELSIF made_class IS NULL THEN
            INSERT INTO public.lti_context_learners (platform_id, context_id, user_id) VALUES (platform.id, context_key, account.id) ON CONFLICT DO NOTHING;
        ELSIF NOT EXISTS (SELECT 1 FROM public.classes c WHERE c.id = made_class AND c.teacher_id = account.id) THEN
            -- A member again even after leaving: the course says they belong to it.
            INSERT INTO public.class_members AS m (class_id, user_id, joined_at) VALUES (made_class, account.id, now_at)
            ON CONFLICT (class_id, user_id) DO UPDATE SET left_at = NULL, joined_at = EXCLUDED.joined_at WHERE m.left_at IS NOT NULL;
        END IF;
    END IF;

    PERFORM public.auth_open_session(account.id, p_session, p_csrf, p_user_agent, now_at);
    RETURN QUERY SELECT 'ok', account.id, made_class, platform.id, payload, NULL::text;
END
$$;


ALTER FUNCTION public.lti_sign_in(p_state text, p_id_token text, p_binding text, p_cookie bytea, p_agent bytea, p_session text, p_csrf text, p_user_agent text) OWNER TO portal_auth;

--
-- Name: lti_signing_key(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.lti_signing_key(OUT kid text, OUT private_pem text) RETURNS record
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT k.kid, k.private_pem FROM public.lti_tool_keys k WHERE k.retired_at IS NULL
$$;


ALTER FUNCTION public.lti_signing_key(OUT kid text, OUT private_pem text) OWNER TO portal_owner;

--
-- Name: lti_take_due_scores(integer); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.lti_take_due_scores(p_limit integer) RETURNS TABLE(session_id uuid, platform_id bigint, client_id text, token_url text, lineitem_url text, subject text, score_given numeric, score_maximum numeric, finished_at timestamp with time zone, attempts integer)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    WITH due AS (
        SELECT o.session_id FROM public.lti_score_outbox o
        WHERE o.sent_at IS NULL AND o.next_attempt_at <= public.app_now()
        ORDER BY o.next_attempt_at LIMIT least(greatest(p_limit, 1), 100) FOR UPDATE SKIP LOCKED
    ), taken AS (
        UPDATE public.lti_score_outbox o SET next_attempt_at = public.app_now() + interval '2 minutes'
        FROM due WHERE o.session_id = due.session_id RETURNING o.*
    )
    SELECT t.session_id, t.platform_id, p.client_id, p.token_url, t.lineitem_url, t.subject, t.score_given, t.score_maximum, t.finished_at, t.attempts
    FROM taken t JOIN public.lti_platforms p ON p.id = t.platform_id
$$;


ALTER FUNCTION public.lti_take_due_scores(p_limit integer) OWNER TO portal_auth;

--
-- Name: lti_take_handoff(text, bytea, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.lti_take_handoff(p_handoff text, p_browser bytea, p_token text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    taken record;
BEGIN
    DELETE FROM public.lti_handoffs WHERE token_hash IN (
        SELECT h.token_hash FROM public.lti_handoffs h WHERE h.created_at < now_at - interval '1 day' LIMIT 20);
    UPDATE public.lti_handoffs h SET used_at = now_at
    WHERE h.token_hash = sha256(convert_to(p_handoff, 'UTF8')) AND h.used_at IS NULL
    RETURNING h.* INTO taken;
    IF NOT FOUND OR taken.created_at < now_at - interval '5 minutes' OR taken.browser_hash <> p_browser THEN
        RETURN NULL;
    END IF;
    UPDATE public.auth_sessions s SET token_hash = sha256(convert_to(p_token, 'UTF8')), last_seen_at = now_at
    WHERE s.token_hash = taken.session_hash;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    RETURN taken.location;
END
$$;


ALTER FUNCTION public.lti_take_handoff(p_handoff text, p_browser bytea, p_token text) OWNER TO portal_auth;

--
-- Name: mail_digest_queue(uuid, text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.mail_digest_queue(p_user uuid, p_locale text, p_subject text, p_text text, p_html text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    account record;
    token text := public.mail_token();
BEGIN
    SELECT u.display_name, e.email INTO account
    FROM public.users u JOIN public.user_emails e ON e.user_id = u.id
    WHERE u.id = p_user AND u.digest <> 'off' AND u.disabled_at IS NULL;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    DELETE FROM public.mail_unsubscribes m WHERE m.created_at < public.app_now() - interval '60 days';
    INSERT INTO public.mail_unsubscribes (token_hash, user_id, created_at) VALUES (sha256(convert_to(token, 'UTF8')), p_user, public.app_now());
    PERFORM public.mail_queue('digest', account.email, account.display_name, p_locale, p_subject, p_text, p_html, '/unsubscribe/', token);
    RETURN true;
END
$$;


ALTER FUNCTION public.mail_digest_queue(p_user uuid, p_locale text, p_subject text, p_text text, p_html text) OWNER TO portal_auth;

--
-- Name: mail_digests_take(integer); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.mail_digests_take(p_limit integer) RETURNS TABLE(user_id uuid, locale text, display_name text, weekly boolean, due integer, seconds integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
BEGIN
    RETURN QUERY
    WITH candidates AS (
        SELECT u.id, u.locale, u.display_name, u.digest = 'weekly' AS weekly, local.today, local.day_end
        FROM public.users u JOIN public.user_emails e ON e.user_id = u.id,
             LATERAL (SELECT (now_at AT TIME ZONE u.time_zone)::date AS today,
                             (((now_at AT TIME ZONE u.time_zone)::date + CASE WHEN u.digest = 'weekly' THEN 7 ELSE 1 END)::timestamp
                              AT TIME ZONE u.time_zone) AS day_end) AS local
        WHERE u.digest <> 'off' AND u.disabled_at IS NULL
          AND u.digest_sent_on IS DISTINCT FROM local.today
          AND public.reminder_day_open(u.id, u.time_zone, u.study_time, u.easy_days, now_at)
          AND (u.digest = 'daily' OR extract(isodow FROM local.today)::integer = strpos(translate(u.easy_days, 'r', 'n'), 'n'))
        ORDER BY u.id
        LIMIT least(greatest(p_limit, 1), 200)
        FOR UPDATE OF u SKIP LOCKED
    ), counted AS (
        SELECT c.*, (SELECT count(*)::integer FROM public.review_cards r WHERE r.user_id = c.id AND r.due < c.day_end) AS due
        FROM candidates c
    ), marked AS (
        UPDATE public.users u SET digest_sent_on = counted.today FROM counted WHERE u.id = counted.id RETURNING u.id
    )
    SELECT counted.id, coalesce(counted.locale, 'en'), counted.display_name, counted.weekly, counted.due,
           public.answer_seconds_typical(counted.id)
    FROM counted JOIN marked ON marked.id = counted.id
    WHERE counted.due > 0;
END
$$;


ALTER FUNCTION public.mail_digests_take(p_limit integer) OWNER TO portal_auth;

--
-- Name: mail_failed(uuid, text, boolean); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.mail_failed(p_id uuid, p_error text, p_permanent boolean) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE public.mail_outbox
    SET attempts = attempts + 1, last_error = left(p_error, 500),
        next_attempt_at = public.app_now() + least(interval '1 hour', interval '30 seconds' * power(2, least(attempts, 10))),
        given_up_at = CASE WHEN p_permanent OR created_at < public.app_now() - interval '2 days' THEN public.app_now() END,
        secret = CASE WHEN p_permanent OR created_at < public.app_now() - interval '2 days' THEN NULL ELSE secret END
    WHERE id = p_id AND sent_at IS NULL AND given_up_at IS NULL
$$;


ALTER FUNCTION public.mail_failed(p_id uuid, p_error text, p_permanent boolean) OWNER TO portal_auth;

--
-- Name: mail_outbox_summary(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.mail_outbox_summary() RETURNS TABLE(waiting integer, sent integer, given_up integer, oldest_waiting timestamp with time zone, last_error text, last_error_at timestamp with time zone)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT count(*) FILTER (WHERE o.sent_at IS NULL AND o.given_up_at IS NULL)::integer,
           count(*) FILTER (WHERE o.sent_at IS NOT NULL)::integer,
           count(*) FILTER (WHERE o.given_up_at IS NOT NULL)::integer,
           min(o.created_at) FILTER (WHERE o.sent_at IS NULL AND o.given_up_at IS NULL),
           (SELECT f.last_error FROM public.mail_outbox f WHERE f.last_error IS NOT NULL ORDER BY f.next_attempt_at DESC LIMIT 1),
           (SELECT f.next_attempt_at FROM public.mail_outbox f WHERE f.last_error IS NOT NULL ORDER BY f.next_attempt_at DESC LIMIT 1)
    FROM public.mail_outbox o
    WHERE public.app_role() = 'admin'
    HAVING public.app_role() = 'admin'
$$;


ALTER FUNCTION public.mail_outbox_summary() OWNER TO portal_auth;

--
-- Name: mail_queue(text, text, text, text, text, text, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.mail_queue(p_purpose text, p_recipient text, p_name text, p_locale text, p_subject text, p_text text, p_html text, p_link_path text, p_secret text) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    INSERT INTO public.mail_outbox (purpose, recipient, recipient_name, locale, subject, text_body, html_body, link_path, secret, created_at, next_attempt_at)
    VALUES (p_purpose, p_recipient, left(coalesce(p_name, ''), 200), p_locale, left(p_subject, 300), p_text, p_html, p_link_path, p_secret,
            public.app_now(), public.app_now());
    SELECT pg_notify('mail_outbox', '');
$$;


ALTER FUNCTION public.mail_queue(p_purpose text, p_recipient text, p_name text, p_locale text, p_subject text, p_text text, p_html text, p_link_path text, p_secret text) OWNER TO portal_auth;

--
-- Name: mail_sent(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.mail_sent(p_id uuid) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE public.mail_outbox SET sent_at = public.app_now(), last_error = NULL, secret = NULL, text_body = '', html_body = ''
    WHERE id = p_id AND sent_at IS NULL
$$;


ALTER FUNCTION public.mail_sent(p_id uuid) OWNER TO portal_auth;

--
-- Name: mail_take_due(integer); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.mail_take_due(p_limit integer) RETURNS TABLE(id uuid, recipient text, recipient_name text, locale text, subject text, text_body text, html_body text, link_path text, secret text, attempts integer)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    DELETE FROM public.mail_outbox o WHERE o.id IN (
        SELECT x.id FROM public.mail_outbox x
        WHERE (x.sent_at IS NOT NULL OR x.given_up_at IS NOT NULL) AND x.created_at < public.app_now() - interval '30 days' LIMIT 50);
    WITH due AS (
        SELECT o.id FROM public.mail_outbox o
        WHERE o.sent_at IS NULL AND o.given_up_at IS NULL AND o.next_attempt_at <= public.app_now()
        ORDER BY o.next_attempt_at LIMIT least(greatest(p_limit, 1), 100) FOR UPDATE SKIP LOCKED
    ), taken AS (
        UPDATE public.mail_outbox o SET next_attempt_at = public.app_now() + interval '2 minutes'
        FROM due WHERE o.id = due.id RETURNING o.*
    )
    SELECT t.id, t.recipient, t.recipient_name, t.locale, t.subject, t.text_body, t.html_body, t.link_path, t.secret, t.attempts FROM taken t
$$;


ALTER FUNCTION public.mail_take_due(p_limit integer) OWNER TO portal_auth;

--
-- Name: mail_token(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.mail_token() RETURNS text
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
$$;


ALTER FUNCTION public.mail_token() OWNER TO portal_auth;

--
-- Name: mail_unsubscribe(text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.mail_unsubscribe(p_token text) RETURNS boolean
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE public.users u SET digest = 'off'
    FROM public.mail_unsubscribes m
    WHERE m.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) AND m.user_id = u.id
    RETURNING true
$$;


ALTER FUNCTION public.mail_unsubscribe(p_token text) OWNER TO portal_auth;

--
-- Name: math_node_problem(jsonb, integer); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.math_node_problem(p_node jsonb, p_depth integer DEFAULT 0) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    attribute record;
    child jsonb;
    problem text;
    allowed text[];
BEGIN
    IF p_depth > 64 THEN RETURN 'a formula nests more than 64 deep'; END IF;
    IF jsonb_typeof(p_node) IS DISTINCT FROM 'object' THEN RETURN 'a formula''s node must be an object'; END IF;
    IF p_node ? 'text' THEN
        IF jsonb_typeof(p_node -> 'text') <> 'string' THEN RETURN 'a formula''s text must be text'; END IF;
        RETURN NULL;
    END IF;
    IF jsonb_typeof(p_node -> 'name') IS DISTINCT FROM 'string' THEN RETURN 'a formula''s node must have a name'; END IF;
    IF (p_node ->> 'name') NOT IN ('mrow', 'mi', 'mn', 'mo', 'mtext', 'mspace', 'msup', 'msub', 'msubsup', 'mfrac', 'msqrt', 'mroot',
                                   'mover', 'munder', 'munderover', 'mtable', 'mtr', 'mtd', 'mstyle') THEN
        RETURN format('%s is not a MathML element a formula may use', left(p_node ->> 'name', 20));
    END IF;
    IF p_node ? 'attrs' THEN
        IF jsonb_typeof(p_node -> 'attrs') <> 'object' THEN RETURN 'a formula''s attributes must be an object'; END IF;
        FOR attribute IN SELECT key, value FROM jsonb_each(p_node -> 'attrs') LOOP
            allowed := CASE attribute.key
                WHEN 'mathvariant' THEN ARRAY['normal'] WHEN 'stretchy' THEN ARRAY['true', 'false'] WHEN 'fence' THEN ARRAY['true']
                WHEN 'largeop' THEN ARRAY['true'] WHEN 'movablelimits' THEN ARRAY['true', 'false'] WHEN 'accent' THEN ARRAY['true']
                WHEN 'accentunder' THEN ARRAY['true'] WHEN 'linethickness' THEN ARRAY['0'] WHEN 'displaystyle' THEN ARRAY['true', 'false']
                WHEN 'scriptlevel' THEN ARRAY['0', '1'] WHEN 'width' THEN ARRAY[]::text[] WHEN 'lspace' THEN ARRAY[]::text[]
                WHEN 'rspace' THEN ARRAY[]::text[] END;
            IF allowed IS NULL THEN RETURN format('%s is not an attribute a formula may use', left(attribute.key, 20)); END IF;
            IF jsonb_typeof(attribute.value) <> 'string'
               OR (cardinality(allowed) > 0 AND NOT (attribute.value #>> '{}') = ANY (allowed))
               OR (cardinality(allowed) = 0 AND (attribute.value #>> '{}') !~ '^-?[0-9.]{1,8}(em)?$') THEN
                RETURN format('%s="%s" is not allowed', left(attribute.key, 20), left(attribute.value #>> '{}', 20));
            END IF;
        END LOOP;
    END IF;
    IF p_node ? 'children' THEN
        IF jsonb_typeof(p_node -> 'children') <> 'array' THEN RETURN 'a formula''s children must be a list'; END IF;
        FOR child IN SELECT value FROM jsonb_array_elements(p_node -> 'children') LOOP
            problem := public.math_node_problem(child, p_depth + 1);
            IF problem IS NOT NULL THEN RETURN problem; END IF;
        END LOOP;
    END IF;
    RETURN NULL;
END
$_$;


ALTER FUNCTION public.math_node_problem(p_node jsonb, p_depth integer) OWNER TO portal_owner;

--
-- Name: my_account_made_by_teacher(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.my_account_made_by_teacher() RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN coalesce((SELECT u.made_by IS NOT NULL FROM public.users u WHERE u.id = public.app_user_id()), false);
END
$$;


ALTER FUNCTION public.my_account_made_by_teacher() OWNER TO portal_auth;

--
-- Name: my_answered_questions(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.my_answered_questions() RETURNS TABLE(question_id uuid, version integer, stem text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT DISTINCT a.question_id, a.question_version, coalesce(v.snapshot->>'stem', q.stem)
    FROM public.answers a
    JOIN public.questions q ON q.id = a.question_id
    LEFT JOIN public.question_versions v ON v.question_id = a.question_id AND v.version = a.question_version
    WHERE a.user_id = public.app_user_id()
$$;


ALTER FUNCTION public.my_answered_questions() OWNER TO portal_auth;

--
-- Name: my_assignments(timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.my_assignments(p_now timestamp with time zone) RETURNS TABLE(id uuid, title text, class_id uuid, class_name text, exam_title text, exam_language text, mode text, question_count integer, due_at timestamp with time zone, allowed integer, used integer, finished_at timestamp with time zone, score_percent double precision)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT l.id, l.title, c.id, c.name, e.title, e.language, l.mode, l.question_count, l.due_at,
           l.attempts + coalesce((SELECT a.extra_attempts FROM public.accommodations a WHERE a.student_id = m.user_id), 0),
           (SELECT count(*)::integer FROM public.study_sessions s WHERE s.share_link_id = l.id AND s.user_id = m.user_id),
           best.finished_at, best.score_percent::double precision
    FROM public.class_members m JOIN public.classes c ON c.id = m.class_id
    JOIN public.share_links l ON l.class_id = c.id JOIN public.exams e ON e.id = l.exam_id
    LEFT JOIN LATERAL (SELECT s.finished_at, s.score_percent FROM public.study_sessions s
                       WHERE s.share_link_id = l.id AND s.user_id = m.user_id AND s.finished_at IS NOT NULL
                       ORDER BY s.score_percent DESC NULLS LAST, s.finished_at LIMIT 1) AS best ON true
    WHERE m.user_id = public.app_user_id() AND m.left_at IS NULL AND l.revoked_at IS NULL
      AND (l.expires_at IS NULL OR l.expires_at > greatest(p_now, public.app_now()))
    ORDER BY l.due_at NULLS LAST, l.created_at DESC, l.id
$$;


ALTER FUNCTION public.my_assignments(p_now timestamp with time zone) OWNER TO portal_auth;

--
-- Name: my_audit_entries(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.my_audit_entries() RETURNS TABLE(at timestamp with time zone, actor_name text, action text, target text, details jsonb)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT l.at, l.actor_name, l.action, l.target, l.details
    FROM public.audit_log l
    WHERE public.app_user_id() IS NOT NULL
      AND (l.actor_id = public.app_user_id() OR l.target = (SELECT u.username FROM public.users u WHERE u.id = public.app_user_id()))
    ORDER BY l.at
$$;


ALTER FUNCTION public.my_audit_entries() OWNER TO portal_auth;

--
-- Name: my_public_board_allowed(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.my_public_board_allowed() RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    RETURN coalesce((SELECT public.public_board_allowed(u.id, u.made_by) FROM public.users u WHERE u.id = public.app_user_id()), false);
END
$$;


ALTER FUNCTION public.my_public_board_allowed() OWNER TO portal_auth;

--
-- Name: notify_account_changed(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.notify_account_changed() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM pg_notify('portal_sessions', 'user:' || NEW.id);
    RETURN NULL;
END
$$;


ALTER FUNCTION public.notify_account_changed() OWNER TO portal_owner;

--
-- Name: notify_class_changed(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.notify_class_changed() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.class_id IS NOT NULL THEN
        PERFORM pg_catalog.pg_notify('portal_readers', 'class:' || OLD.class_id);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.class_id IS NOT NULL THEN
        PERFORM pg_catalog.pg_notify('portal_readers', 'class:' || NEW.class_id);
    END IF;
    RETURN NULL;
END
$$;


ALTER FUNCTION public.notify_class_changed() OWNER TO portal_owner;

--
-- Name: notify_class_row_changed(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.notify_class_row_changed() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM pg_catalog.pg_notify('portal_readers', 'class:' || NEW.id);
    RETURN NULL;
END
$$;


ALTER FUNCTION public.notify_class_row_changed() OWNER TO portal_owner;

--
-- Name: notify_content(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.notify_content() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM pg_notify('portal_content', '');
    RETURN NULL;
END
$$;


ALTER FUNCTION public.notify_content() OWNER TO portal_owner;

--
-- Name: notify_leaderboard(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.notify_leaderboard() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM pg_notify('portal_leaderboard', '');
    RETURN NULL;
END
$$;


ALTER FUNCTION public.notify_leaderboard() OWNER TO portal_owner;

--
-- Name: notify_session_ended(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.notify_session_ended() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM pg_notify('portal_sessions', 'session:' || OLD.id);
    RETURN NULL;
END
$$;


ALTER FUNCTION public.notify_session_ended() OWNER TO portal_owner;

--
-- Name: numeric_modpow(numeric, numeric, numeric); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.numeric_modpow(p_base numeric, p_exponent numeric, p_modulus numeric) RETURNS numeric
    LANGUAGE plpgsql IMMUTABLE STRICT
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    result numeric := 1;
    base numeric := mod(p_base, p_modulus);
    exponent numeric := p_exponent;
BEGIN
    WHILE exponent > 0 LOOP
        IF mod(exponent, 2) = 1 THEN
            result := mod(result * base, p_modulus);
        END IF;
        exponent := div(exponent, 2);
        IF exponent > 0 THEN
            base := mod(base * base, p_modulus);
        END IF;
    END LOOP;
    RETURN result;
END
$$;


ALTER FUNCTION public.numeric_modpow(p_base numeric, p_exponent numeric, p_modulus numeric) OWNER TO portal_owner;

--
-- Name: prune_anonymous_state(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.prune_anonymous_state() RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    total integer := 0;
    removed integer;
BEGIN
    DELETE FROM public.lti_states s WHERE s.created_at < now_at - interval '15 minutes';
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.sso_states s WHERE s.created_at < now_at - interval '15 minutes';
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.used_tokens t WHERE t.expires_at < now_at;
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.rate_limits r WHERE r.window_start < now_at - interval '1 day';
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.form_sends f WHERE f.created_at < now_at - interval '1 day';
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    -- A class's start codes are readable for a day, then forgotten (the accounts stay listed).
    UPDATE public.class_account_batches b
    SET codes_shown = false, cards = (SELECT coalesce(jsonb_agg(card.value - 'code' ORDER BY card.ord), '[]'::jsonb)
                                      FROM jsonb_array_elements(b.cards) WITH ORDINALITY AS card(value, ord))
    WHERE b.codes_shown AND b.made_at < now_at - interval '1 day';
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN total + removed;
END
$$;


ALTER FUNCTION public.prune_anonymous_state() OWNER TO portal_auth;

--
-- Name: public_board_allowed(uuid, uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.public_board_allowed(p_user uuid, p_made_by uuid) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT p_made_by IS NULL OR EXISTS (
        SELECT FROM public.class_members m JOIN public.classes c ON c.id = m.class_id
        WHERE m.user_id = p_user AND m.left_at IS NULL AND c.teacher_id = p_made_by AND c.public_boards)
$$;


ALTER FUNCTION public.public_board_allowed(p_user uuid, p_made_by uuid) OWNER TO portal_auth;

--
-- Name: published_option_ids(uuid[], integer[]); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.published_option_ids(p_questions uuid[], p_versions integer[]) RETURNS TABLE(question_id uuid, version integer, option_ids text[])
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT v.question_id, v.version,
           ARRAY(SELECT o.value->>'id' FROM jsonb_array_elements(v.snapshot->'options') WITH ORDINALITY AS o(value, n) ORDER BY o.n)
    FROM unnest(p_questions, p_versions) AS w(question_id, version)
    JOIN public.question_versions v ON v.question_id = w.question_id AND v.version = w.version
    WHERE v.snapshot->>'status' = 'published' AND v.snapshot->>'deletedAt' IS NULL
$$;


ALTER FUNCTION public.published_option_ids(p_questions uuid[], p_versions integer[]) OWNER TO portal_auth;

--
-- Name: purge_expired_data(integer, integer); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.purge_expired_data(p_days integer, p_limit integer) RETURNS TABLE(guest_sessions integer, guest_players integer, accounts integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    cutoff timestamptz := public.app_now() - make_interval(days => greatest(p_days, 30));
    batch integer := least(greatest(p_limit, 1), 5000);
    sessions_gone integer;
    players_gone integer;
    accounts_gone integer;
BEGIN
    DELETE FROM public.study_sessions s WHERE s.id IN (
        SELECT x.id FROM public.study_sessions x WHERE x.guest_key IS NOT NULL AND x.started_at < cutoff LIMIT batch);
    GET DIAGNOSTICS sessions_gone = ROW_COUNT;
    DELETE FROM public.live_participants p WHERE p.id IN (
        SELECT x.id FROM public.live_participants x WHERE x.guest_key IS NOT NULL AND x.joined_at < cutoff LIMIT batch);
    GET DIAGNOSTICS players_gone = ROW_COUNT;
    DELETE FROM public.users u WHERE u.id IN (
        SELECT x.id FROM public.users x
        WHERE x.role = 'student' AND x.made_by IS NULL AND x.created_at < cutoff
          AND NOT EXISTS (SELECT FROM public.study_sessions s WHERE s.user_id = x.id)
          AND NOT EXISTS (SELECT FROM public.class_members m WHERE m.user_id = x.id)
          AND NOT EXISTS (SELECT FROM public.user_emails e WHERE e.user_id = x.id)
          AND NOT EXISTS (SELECT FROM public.external_identities i WHERE i.user_id = x.id)
          AND NOT EXISTS (SELECT FROM public.live_participants p WHERE p.user_id = x.id)
          AND NOT EXISTS (SELECT FROM public.auth_sessions a WHERE a.user_id = x.id AND a.last_seen_at >= cutoff)
        LIMIT batch);
    GET DIAGNOSTICS accounts_gone = ROW_COUNT;
    IF accounts_gone > 0 THEN
        INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
        VALUES (public.app_now(), NULL, 'retention', 'account.deleted', '',
                pg_catalog.jsonb_build_object('by', 'retention', 'count', accounts_gone, 'days', greatest(p_days, 30)));
    END IF;
    RETURN QUERY SELECT sessions_gone, players_gone, accounts_gone;
END
$$;


ALTER FUNCTION public.purge_expired_data(p_days integer, p_limit integer) OWNER TO portal_auth;

--
-- Name: push_gone(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.push_gone(p_subscription uuid) RETURNS void
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    DELETE FROM public.push_subscriptions s WHERE s.id = p_subscription
$$;


ALTER FUNCTION public.push_gone(p_subscription uuid) OWNER TO portal_auth;

--
-- Name: push_key_store(text, bytea); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.push_key_store(p_pem text, p_point bytea) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO public.push_keys (id, private_pem, public_point, created_at) VALUES (1, p_pem, p_point, public.app_now())
    ON CONFLICT (id) DO NOTHING;
    RETURN (SELECT k.private_pem FROM public.push_keys k WHERE k.id = 1);
END
$$;


ALTER FUNCTION public.push_key_store(p_pem text, p_point bytea) OWNER TO portal_auth;

--
-- Name: push_public_key(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.push_public_key() RETURNS bytea
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT k.public_point FROM public.push_keys k WHERE k.id = 1
$$;


ALTER FUNCTION public.push_public_key() OWNER TO portal_auth;

--
-- Name: push_reminders_take(integer); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.push_reminders_take(p_limit integer) RETURNS TABLE(subscription uuid, endpoint text, p256dh bytea, auth bytea, locale text, due integer, seconds integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
BEGIN
    RETURN QUERY
    WITH candidates AS (
        SELECT u.id, u.locale, local.today, local.day_end
        FROM public.users u,
             LATERAL (SELECT (now_at AT TIME ZONE u.time_zone)::date AS today,
                             (((now_at AT TIME ZONE u.time_zone)::date + 1)::timestamp AT TIME ZONE u.time_zone) AS day_end) AS local
        WHERE EXISTS (SELECT 1 FROM public.push_subscriptions s WHERE s.user_id = u.id) AND u.disabled_at IS NULL
          AND u.push_sent_on IS DISTINCT FROM local.today
          AND public.reminder_day_open(u.id, u.time_zone, u.study_time, u.easy_days, now_at)
        ORDER BY u.id
        LIMIT least(greatest(p_limit, 1), 200)
        FOR UPDATE OF u SKIP LOCKED
    ), counted AS (
        SELECT c.*, (SELECT count(*)::integer FROM public.review_cards r WHERE r.user_id = c.id AND r.due < c.day_end) AS due
        FROM candidates c
    ), marked AS (
        UPDATE public.users u SET push_sent_on = counted.today FROM counted WHERE u.id = counted.id RETURNING u.id
    )
    SELECT s.id, s.endpoint, s.p256dh, s.auth, coalesce(counted.locale, 'en'), counted.due,
           public.answer_seconds_typical(counted.id)
    FROM counted JOIN marked ON marked.id = counted.id JOIN public.push_subscriptions s ON s.user_id = counted.id
    WHERE counted.due > 0;
END
$$;


ALTER FUNCTION public.push_reminders_take(p_limit integer) OWNER TO portal_auth;

--
-- Name: push_signing_key(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.push_signing_key() RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT k.private_pem FROM public.push_keys k WHERE k.id = 1
$$;


ALTER FUNCTION public.push_signing_key() OWNER TO portal_auth;

--
-- Name: push_subscribe(text, bytea, bytea); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.push_subscribe(p_endpoint text, p_p256dh bytea, p_auth bytea) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
    made uuid;
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'only a signed-in student subscribes' USING ERRCODE = '42501';
    END IF;
    INSERT INTO public.push_subscriptions (user_id, endpoint, p256dh, auth, created_at)
    VALUES (me, p_endpoint, p_p256dh, p_auth, public.app_now())
    ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, created_at = EXCLUDED.created_at
    RETURNING id INTO made;
    DELETE FROM public.push_subscriptions s WHERE s.user_id = me AND s.id NOT IN (
        SELECT n.id FROM public.push_subscriptions n WHERE n.user_id = me ORDER BY n.created_at DESC, n.id LIMIT 10);
    RETURN made;
END
$$;


ALTER FUNCTION public.push_subscribe(p_endpoint text, p_p256dh bytea, p_auth bytea) OWNER TO portal_auth;

--
-- Name: question_facilities(integer); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.question_facilities(p_exam integer) RETURNS TABLE(question_id uuid, attempts bigint, facility double precision)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT i.question_id, count(*), avg(i.correct::integer)::double precision
    FROM public.first_mock_items(p_exam) i JOIN public.questions q ON q.id = i.question_id
    WHERE q.status = 'published' AND q.deleted_at IS NULL AND public.app_role() IN ('teacher', 'admin')
    GROUP BY i.question_id HAVING count(*) >= 10
$$;


ALTER FUNCTION public.question_facilities(p_exam integer) OWNER TO portal_auth;

--
-- Name: question_picture_unnamed(jsonb, jsonb); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.question_picture_unnamed(p_options jsonb, p_rich jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $_$
    SELECT coalesce(
        jsonb_path_query_first(p_rich, 'strict $.** ? (@.type == "picture" && @.alt like_regex "^[^\\s/\\\\]+\\.(png|jpe?g|gif|webp|svg|mp3|ogg|m4a|mp4|webm)$" flag "i").alt'),
        jsonb_path_query_first(p_options, 'strict $[*] ? (exists(@.imageUrl) && @.text like_regex "^[^\\s/\\\\]+\\.(png|jpe?g|gif|webp|svg)$" flag "i").text')
    ) #>> '{}'
$_$;


ALTER FUNCTION public.question_picture_unnamed(p_options jsonb, p_rich jsonb) OWNER TO portal_owner;

--
-- Name: question_shape_problem(text, jsonb, jsonb, jsonb); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.question_shape_problem(kind text, options jsonb, correct jsonb, details jsonb) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    allowed text[];
    other text;
    option_count integer;
    option jsonb;
    position integer := 0;
    ids text[] := '{}';
    answer jsonb;
    answers integer[] := '{}';
    number_value numeric;
    value integer;
    is_hotspot boolean := kind = 'hotspot';
    region jsonb;
    coords double precision[];
    target jsonb;
    target_count integer;
    match_rule text := 'exact';
    normal text;
BEGIN
    IF kind IS NULL OR kind NOT IN ('single-choice', 'multi-choice', 'ordering', 'code-snippet', 'matching', 'fill-in', 'hotspot', 'cloze') THEN
        RETURN format('unknown question type %s', kind);
    END IF;
    IF details IS NULL OR jsonb_typeof(details) <> 'object' THEN
        RETURN 'the details must be an object';
    END IF;
    allowed := CASE kind WHEN 'matching' THEN ARRAY['targets'] WHEN 'fill-in' THEN ARRAY['accepted', 'match', 'tolerance', 'partial']
                         WHEN 'hotspot' THEN ARRAY['imageUrl'] WHEN 'cloze' THEN ARRAY['gaps'] ELSE ARRAY[]::text[] END;
    SELECT k INTO other FROM jsonb_object_keys(details) AS k WHERE NOT (k = ANY (allowed)) ORDER BY k COLLATE "C" LIMIT 1;
    IF other IS NOT NULL THEN
        RETURN format('a %s question does not take %s', kind, other);
    END IF;
    IF options IS NULL OR jsonb_typeof(options) <> 'array' THEN
        RETURN 'options must be an array';
    END IF;
    option_count := jsonb_array_length(options);

    IF kind = 'fill-in' THEN
        IF option_count <> 0 THEN
            RETURN 'a fill-in question has no options';
        END IF;
        IF correct IS NOT NULL AND jsonb_typeof(correct) <> 'null' AND NOT (jsonb_typeof(correct) = 'array' AND jsonb_array_length(correct) = 0) THEN
            RETURN 'a fill-in question has no answer key: its accepted answers are the key';
        END IF;
        RETURN public.typed_rule_problem(details, 'a fill-in question', '');
    END IF;

    IF kind = 'cloze' THEN
        IF option_count <> 0 THEN
            RETURN 'a cloze question has no options: its gaps hold the answers';
        END IF;
        IF correct IS NOT NULL AND jsonb_typeof(correct) <> 'null' AND NOT (jsonb_typeof(correct) = 'array' AND jsonb_array_length(correct) = 0) THEN
            RETURN 'a cloze question has no answer key: its gaps hold the answers';
        END IF;
        IF jsonb_typeof(details -> 'gaps') IS DISTINCT FROM 'array' OR jsonb_array_length(details -> 'gaps') NOT BETWEEN 1 AND 20 THEN
            RETURN 'a cloze question needs 1 to 20 gaps';
        END IF;
        FOR target IN SELECT * FROM jsonb_array_elements(details -> 'gaps') LOOP
            position := position + 1;
            IF jsonb_typeof(target) <> 'object' THEN
                RETURN format('gap %s is not an object', position);
            END IF;
            SELECT k INTO other FROM jsonb_object_keys(target) AS k
            WHERE NOT (k IN ('choices', 'accepted', 'match', 'tolerance', 'partial', 'weight')) ORDER BY k COLLATE "C" LIMIT 1;
            IF other IS NOT NULL THEN
                RETURN format('gap %s: a gap does not take %s', position, other);
            END IF;
            IF target ? 'weight' AND (jsonb_typeof(target -> 'weight') <> 'number' OR (target ->> 'weight')::numeric NOT BETWEEN 1 AND 100
                                      OR (target ->> 'weight')::numeric <> trunc((target ->> 'weight')::numeric)) THEN
                RETURN format('gap %s: the weight must be a whole number from 1 to 100', position);
            END IF;
            other := public.typed_rule_problem(target, format('gap %s', position), format('gap %s: ', position));
            IF other IS NOT NULL THEN
                RETURN other;
            END IF;
            CONTINUE WHEN NOT target ? 'choices';
            IF jsonb_typeof(target -> 'choices') <> 'array' OR jsonb_array_length(target -> 'choices') NOT BETWEEN 2 AND 20 THEN
                RETURN format('gap %s: a choice gap offers 2 to 20 choices', position);
            END IF;
            ids := '{}';
            value := 0;
            FOR answer IN SELECT * FROM jsonb_array_elements(target -> 'choices') LOOP
                IF jsonb_typeof(answer) <> 'string' OR public.fill_in_normalized(answer #>> '{}') = '' THEN
                    RETURN format('gap %s: choice %s has no text', position, value);
                END IF;
                normal := public.fill_in_normalized(answer #>> '{}');
                IF length(normal) > 200 THEN
                    RETURN format('gap %s: choice %s is longer than 200 characters', position, value);
                END IF;
                IF normal = ANY (ids) THEN
                    RETURN format('gap %s: choice %s is offered twice', position, value);
                END IF;
                ids := ids || normal;
                value := value + 1;
            END LOOP;
            IF target ? 'match' THEN
                RETURN format('gap %s: a choice gap compares its choices exactly: it takes no match', position);
            END IF;
            SELECT public.fill_in_normalized(a) INTO normal
            FROM (SELECT a, n FROM jsonb_array_elements_text(target -> 'accepted') WITH ORDINALITY AS x(a, n)
                  UNION ALL
                  SELECT p ->> 'answer', 1000 + n FROM jsonb_array_elements(coalesce(target -> 'partial', '[]')) WITH ORDINALITY AS y(p, n)) AS answers
            WHERE NOT (public.fill_in_normalized(a) = ANY (ids)) ORDER BY n LIMIT 1;
            IF normal IS NOT NULL THEN
                RETURN format('gap %s: the answer %s is not one of the choices', position, normal);
            END IF;
        END LOOP;
        RETURN NULL;
    END IF;

    IF option_count < 2 OR option_count > 10 THEN
        RETURN 'a question needs 2 to 10 options';
    END IF;
    FOR option IN SELECT * FROM jsonb_array_elements(options) LOOP
        IF jsonb_typeof(option) <> 'object' THEN
            RETURN format('option %s is not an object', position);
        END IF;
        IF EXISTS (SELECT 1 FROM jsonb_object_keys(option) AS key
                   WHERE NOT (key = ANY (CASE WHEN is_hotspot THEN ARRAY['id', 'text', 'region', 'explanation']
                                              ELSE ARRAY['id', 'text', 'imageUrl', 'code', 'explanation'] END))) THEN
            RETURN format('option %s has a key other than %s', position,
                          CASE WHEN is_hotspot THEN 'id, text, region, explanation' ELSE 'id, text, imageUrl, code, explanation' END);
        END IF;
        IF jsonb_typeof(option -> 'id') IS DISTINCT FROM 'string' OR length(option ->> 'id') = 0 THEN
            RETURN format('option %s has no id', position);
        END IF;
        IF jsonb_typeof(option -> 'text') IS DISTINCT FROM 'string' OR length(btrim(option ->> 'text', E' \t\n\r')) = 0 THEN
            RETURN format('option %s has no text', position);
        END IF;
        IF (option ? 'imageUrl' AND jsonb_typeof(option -> 'imageUrl') <> 'string')
           OR (option ? 'code' AND jsonb_typeof(option -> 'code') <> 'string')
           OR (option ? 'explanation' AND jsonb_typeof(option -> 'explanation') <> 'string') THEN
            RETURN format('option %s has a non-text imageUrl, code or explanation', position);
        END IF;
        IF option ? 'imageUrl' AND NOT (
            (option ->> 'imageUrl') ~ '^https://[^\s/?#]+[^\s]*$'
            OR ((option ->> 'imageUrl') ~ '^/[^/\\\s]' AND (option ->> 'imageUrl') !~ '[\s\\]')) THEN
            RETURN format('option %s has an image address that is neither a path on this site nor https', position);
        END IF;
        IF is_hotspot THEN
            IF NOT option ? 'region' THEN
                RETURN format('option %s has no region', position);
            END IF;
            region := option -> 'region';
            IF jsonb_typeof(region) <> 'object'
               OR (SELECT array_agg(k ORDER BY k COLLATE "C") FROM jsonb_object_keys(region) AS k) IS DISTINCT FROM ARRAY['coords', 'shape']
               OR jsonb_typeof(region -> 'shape') <> 'string' OR NOT (region ->> 'shape' IN ('rect', 'circle', 'polygon')) THEN
                RETURN format('option %s has a region that is not a rect, circle or polygon', position);
            END IF;
            IF jsonb_typeof(region -> 'coords') <> 'array'
               OR EXISTS (SELECT 1 FROM jsonb_array_elements(region -> 'coords') AS v WHERE jsonb_typeof(v) <> 'number') THEN
                RETURN format('option %s has a region whose coordinates do not fit its shape', position);
            END IF;
            coords := ARRAY(SELECT v::double precision FROM jsonb_array_elements_text(region -> 'coords') AS v);
            IF NOT public.hotspot_well_formed(region ->> 'shape', coords) THEN
                RETURN format('option %s has a region whose coordinates do not fit its shape', position);
            END IF;
        END IF;
        IF (option ->> 'id') = ANY (ids) THEN
            RETURN format('option %s repeats the id %s', position, option ->> 'id');
        END IF;
        ids := ids || (option ->> 'id');
        position := position + 1;
    END LOOP;

    IF kind = 'matching' THEN
        IF jsonb_typeof(details -> 'targets') IS DISTINCT FROM 'array' OR jsonb_array_length(details -> 'targets') NOT BETWEEN 2 AND 20 THEN
            RETURN 'a matching question needs 2 to 20 targets';
        END IF;
        target_count := jsonb_array_length(details -> 'targets');
        ids := '{}';
        position := 0;
        FOR target IN SELECT * FROM jsonb_array_elements(details -> 'targets') LOOP
            IF jsonb_typeof(target) <> 'object' THEN
                RETURN format('target %s is not an object', position);
            END IF;
            IF EXISTS (SELECT 1 FROM jsonb_object_keys(target) AS key WHERE key NOT IN ('id', 'text')) THEN
                RETURN format('target %s has a key other than id, text', position);
            END IF;
            IF jsonb_typeof(target -> 'id') IS DISTINCT FROM 'string' OR length(target ->> 'id') = 0 THEN
                RETURN format('target %s has no id', position);
            END IF;
            IF jsonb_typeof(target -> 'text') IS DISTINCT FROM 'string' OR length(btrim(target ->> 'text', E' \t\n\r')) = 0 THEN
                RETURN format('target %s has no text', position);
            END IF;
            IF (target ->> 'id') = ANY (ids) THEN
                RETURN format('target %s repeats the id %s', position, target ->> 'id');
            END IF;
            ids := ids || (target ->> 'id');
            position := position + 1;
        END LOOP;
        IF correct IS NULL OR jsonb_typeof(correct) <> 'array' OR jsonb_array_length(correct) <> option_count THEN
            RETURN 'a matching key names one target for each option';
        END IF;
        FOR answer IN SELECT * FROM jsonb_array_elements(correct) LOOP
            IF jsonb_typeof(answer) <> 'number' THEN
                RETURN 'the answer key holds something other than target indexes';
            END IF;
            number_value := (answer #>> '{}')::numeric;
            IF number_value < 0 OR number_value > 1000 OR number_value <> trunc(number_value) THEN
                RETURN 'the answer key holds something other than target indexes';
            END IF;
            IF number_value >= target_count THEN
                RETURN format('the answer key points at target %s, which does not exist', number_value::integer);
            END IF;
        END LOOP;
        RETURN NULL;
    END IF;

    IF is_hotspot THEN
        IF jsonb_typeof(details -> 'imageUrl') IS DISTINCT FROM 'string' THEN
            RETURN 'a hotspot question needs an image';
        END IF;
        IF NOT ((details ->> 'imageUrl') ~ '^https://[^\s/?#]+[^\s]*$'
                OR ((details ->> 'imageUrl') ~ '^/[^/\\\s]' AND (details ->> 'imageUrl') !~ '[\s\\]')) THEN
            RETURN 'the image address is neither a path on this site nor https';
        END IF;
    END IF;

    IF correct IS NULL OR jsonb_typeof(correct) <> 'array' OR jsonb_array_length(correct) = 0 THEN
        RETURN 'the answer key must be a non-empty array of option indexes';
    END IF;
    FOR answer IN SELECT * FROM jsonb_array_elements(correct) LOOP
        IF jsonb_typeof(answer) <> 'number' THEN
            RETURN 'the answer key holds something other than option indexes';
        END IF;
        number_value := (answer #>> '{}')::numeric;
        IF number_value < 0 OR number_value > 1000 OR number_value <> trunc(number_value) THEN
            RETURN 'the answer key holds something other than option indexes';
        END IF;
        value := number_value::integer;
        IF value >= option_count THEN
            RETURN format('the answer key points at option %s, which does not exist', value);
        END IF;
        IF value = ANY (answers) THEN
            RETURN format('the answer key names option %s twice', value);
        END IF;
        answers := answers || value;
    END LOOP;

    -- A single choice's key may name several options, each fully right; a code snippet's output is one.
    IF kind = 'code-snippet' AND cardinality(answers) <> 1 THEN
        RETURN format('a %s question has exactly one correct option', kind);
    END IF;
    IF kind = 'ordering' AND cardinality(answers) <> option_count THEN
        RETURN 'an ordering key must list every option exactly once';
    END IF;
    RETURN NULL;
END
$_$;


ALTER FUNCTION public.question_shape_problem(kind text, options jsonb, correct jsonb, details jsonb) OWNER TO portal_owner;

--
-- Name: question_texts_problem(jsonb, jsonb); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.question_texts_problem(p_rich jsonb, p_options jsonb) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    option jsonb;
    position integer := 0;
    problem text;
BEGIN
    IF jsonb_typeof(p_rich) IS DISTINCT FROM 'object' OR jsonb_typeof(p_rich -> 'options') IS DISTINCT FROM 'array' THEN
        RETURN 'rich texts must be an object with the stem, the explanation and the options';
    END IF;
    problem := public.rich_text_problem(p_rich -> 'stem');
    IF problem IS NOT NULL THEN RETURN 'stem: ' || problem; END IF;
    problem := public.rich_text_problem(p_rich -> 'explanation');
    IF problem IS NOT NULL THEN RETURN 'explanation: ' || problem; END IF;
    IF jsonb_array_length(p_rich -> 'options') <> coalesce(jsonb_array_length(p_options), 0) THEN
        RETURN 'rich texts must have one entry for each option';
    END IF;
    FOR option IN SELECT value FROM jsonb_array_elements(p_rich -> 'options') LOOP
        IF jsonb_typeof(option) IS DISTINCT FROM 'object' THEN RETURN format('options[%s]: must be an object', position); END IF;
        problem := public.rich_text_problem(option -> 'text');
        IF problem IS NULL AND (jsonb_array_length(option -> 'text') > 1
           OR (jsonb_array_length(option -> 'text') = 1 AND option #>> '{text,0,type}' <> 'paragraph')) THEN
            problem := 'an option is one line of text: no lists, tables, code blocks, quotes or pictures (put those in the stem)';
        END IF;
        IF problem IS NOT NULL THEN RETURN format('options[%s].text: %s', position, problem); END IF;
        IF option ? 'explanation' AND option -> 'explanation' <> 'null'::jsonb THEN
            problem := public.rich_text_problem(option -> 'explanation');
            IF problem IS NOT NULL THEN RETURN format('options[%s].explanation: %s', position, problem); END IF;
        END IF;
        position := position + 1;
    END LOOP;
    RETURN NULL;
END
$$;


ALTER FUNCTION public.question_texts_problem(p_rich jsonb, p_options jsonb) OWNER TO portal_owner;

--
-- Name: questions_bump_version(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.questions_bump_version() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF (NEW.type, NEW.stem, NEW.rich, NEW.code, NEW.code_language, NEW.options, NEW.correct, NEW.details, NEW.explanation,
        NEW.difficulty, NEW.status, NEW.deleted_at, NEW.domain_id, NEW.exam_only)
       IS DISTINCT FROM
       (OLD.type, OLD.stem, OLD.rich, OLD.code, OLD.code_language, OLD.options, OLD.correct, OLD.details, OLD.explanation,
        OLD.difficulty, OLD.status, OLD.deleted_at, OLD.domain_id, OLD.exam_only) THEN
        NEW.version := OLD.version + 1;
        NEW.updated_at := now();
    END IF;
    RETURN NEW;
END
$$;


ALTER FUNCTION public.questions_bump_version() OWNER TO portal_owner;

--
-- Name: questions_hold_unnamed_pictures(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.questions_hold_unnamed_pictures() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF NEW.status = 'published' AND public.question_picture_unnamed(NEW.options, NEW.rich) IS NOT NULL THEN
        NEW.status := 'draft';
    END IF;
    RETURN NEW;
END
$$;


ALTER FUNCTION public.questions_hold_unnamed_pictures() OWNER TO portal_owner;

--
-- Name: questions_keep_version(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.questions_keep_version() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version THEN
        INSERT INTO public.question_versions (question_id, version, snapshot)
        VALUES (NEW.id, NEW.version, jsonb_build_object(
            'type', NEW.type, 'stem', NEW.stem, 'rich', NEW.rich, 'code', NEW.code, 'codeLanguage', NEW.code_language, 'options', NEW.options,
            'correct', NEW.correct, 'details', NEW.details, 'explanation', NEW.explanation, 'difficulty', NEW.difficulty,
            'status', NEW.status, 'deletedAt', NEW.deleted_at, 'examOnly', NEW.exam_only))
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;


ALTER FUNCTION public.questions_keep_version() OWNER TO portal_owner;

--
-- Name: questions_set_exam(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.questions_set_exam() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    NEW.exam_id := (SELECT d.exam_id FROM public.domains d WHERE d.id = NEW.domain_id);
    RETURN NEW;
END
$$;


ALTER FUNCTION public.questions_set_exam() OWNER TO portal_owner;

--
-- Name: quiz_questions_check(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.quiz_questions_check() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.question_id IS DISTINCT FROM OLD.question_id THEN
        IF NOT EXISTS (SELECT 1 FROM public.quizzes z JOIN public.domains d ON d.exam_id = z.exam_id
                       JOIN public.questions q ON q.domain_id = d.id
                       WHERE z.id = NEW.quiz_id AND q.id = NEW.question_id AND q.status = 'published' AND q.deleted_at IS NULL) THEN
            RAISE EXCEPTION 'a quiz takes published questions of its own exam' USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    RETURN NEW;
END
$$;


ALTER FUNCTION public.quiz_questions_check() OWNER TO portal_owner;

--
-- Name: quiz_questions_of_link(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.quiz_questions_of_link(p_link uuid) RETURNS TABLE(question_id uuid)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT qq.question_id
    FROM public.share_links l JOIN public.quiz_questions qq ON qq.quiz_id = l.quiz_id
    JOIN public.questions q ON q.id = qq.question_id
    WHERE l.id = p_link AND q.status = 'published' AND q.deleted_at IS NULL
      AND (l.created_by = public.app_user_id()
           OR EXISTS (SELECT 1 FROM public.class_members m
                      WHERE m.class_id = l.class_id AND m.user_id = public.app_user_id() AND m.left_at IS NULL))
    ORDER BY qq.position, qq.question_id
$$;


ALTER FUNCTION public.quiz_questions_of_link(p_link uuid) OWNER TO portal_auth;

--
-- Name: rate_limit(text, text, integer, integer, boolean); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer, p_take boolean) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    now_at timestamptz := public.app_now();
    window_length interval := make_interval(secs => greatest(p_window_seconds, 1));
    key_value bytea := sha256(convert_to(p_key, 'UTF8'));
    hit record;
BEGIN
    IF p_take THEN
        INSERT INTO public.rate_limits AS r (bucket, key_hash, window_start, hits) VALUES (p_bucket, key_value, now_at, 1)
        ON CONFLICT (bucket, key_hash) DO UPDATE
            SET hits = CASE WHEN r.window_start <= now_at - window_length THEN 1 ELSE r.hits + 1 END,
                window_start = CASE WHEN r.window_start <= now_at - window_length THEN now_at ELSE r.window_start END
        RETURNING r.window_start, r.hits INTO hit;
        -- The hit that went over the limit does not go through either.
        IF hit.hits > p_limit THEN
            RETURN greatest(1, ceil(extract(epoch FROM hit.window_start + window_length - now_at)))::integer;
        END IF;
        DELETE FROM public.rate_limits WHERE (bucket, key_hash) IN (
            SELECT r.bucket, r.key_hash FROM public.rate_limits r WHERE r.window_start < now_at - interval '1 day' LIMIT 10);
        RETURN 0;
    END IF;
    SELECT r.window_start, r.hits INTO hit FROM public.rate_limits r WHERE r.bucket = p_bucket AND r.key_hash = key_value;
    IF FOUND AND hit.window_start > now_at - window_length AND hit.hits >= p_limit THEN
        RETURN greatest(1, ceil(extract(epoch FROM hit.window_start + window_length - now_at)))::integer;
    END IF;
    RETURN 0;
END
$$;


ALTER FUNCTION public.rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer, p_take boolean) OWNER TO portal_auth;

--
-- Name: reader_changed(uuid, boolean); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.reader_changed(p_user uuid, p_announce boolean DEFAULT true) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    stamp bigint := pg_catalog.pg_current_xact_id()::text::bigint;
BEGIN
    UPDATE public.users SET data_version = stamp WHERE id = p_user AND data_version <> stamp;
    IF FOUND AND p_announce THEN
        PERFORM pg_catalog.pg_notify('portal_readers', p_user::text || ':' || stamp);
    END IF;
END
$$;


ALTER FUNCTION public.reader_changed(p_user uuid, p_announce boolean) OWNER TO portal_auth;

--
-- Name: reminder_day_open(uuid, text, time without time zone, text, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.reminder_day_open(p_user uuid, p_time_zone text, p_study_time time without time zone, p_easy_days text, p_now timestamp with time zone) RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT (p_now AT TIME ZONE p_time_zone)::time >= p_study_time
       AND substr(p_easy_days, extract(isodow FROM (p_now AT TIME ZONE p_time_zone)::date)::integer, 1) <> 'x'
       AND NOT EXISTS (SELECT 1 FROM public.study_holidays h
                       WHERE h.user_id = p_user AND (p_now AT TIME ZONE p_time_zone)::date BETWEEN h.starts_on AND h.ends_on)
$$;


ALTER FUNCTION public.reminder_day_open(p_user uuid, p_time_zone text, p_study_time time without time zone, p_easy_days text, p_now timestamp with time zone) OWNER TO portal_owner;

--
-- Name: response_shape_ok(jsonb); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.response_shape_ok(p_response jsonb) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    -- PL/pgSQL keeps the expression's plan for the connection; as SQL (with its search path
    -- fixed, so never inlined) it was parsed again for every answer stored.
    RETURN CASE jsonb_typeof(p_response)
        WHEN 'array' THEN NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_response) AS v WHERE jsonb_typeof(v) <> 'number')
        WHEN 'object' THEN (SELECT count(*) FROM jsonb_object_keys(p_response)) = 1 AND (
            (jsonb_typeof(p_response -> 'pairs') = 'array'
             AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_response -> 'pairs') AS v WHERE jsonb_typeof(v) <> 'number'))
            OR jsonb_typeof(p_response -> 'text') = 'string'
            OR (jsonb_typeof(p_response -> 'point') = 'array' AND jsonb_array_length(p_response -> 'point') = 2
                AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_response -> 'point') AS v WHERE jsonb_typeof(v) <> 'number')))
        ELSE false END;
END
$$;


ALTER FUNCTION public.response_shape_ok(p_response jsonb) OWNER TO portal_owner;

--
-- Name: review_card_apply(uuid, uuid, integer, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.review_card_apply(p_user uuid, p_question uuid, p_rating integer, p_at timestamp with time zone) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    card public.review_cards;
    loaded record;
    retention double precision;
    weights double precision[];
    exam_day timestamptz;
    next record;
    aimed timestamptz;
    today date;
    interval_days integer;
    last_day integer;
    capacities double precision[];
    dues integer[];
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_user::text || p_question::text, 0));
    -- The card (locked: a rebuild under way may be replacing it) with the student's retention,
    -- weights, calendar and exam day, in one read.
    SELECT u.desired_retention::double precision AS retention, coalesce(f.weights, public.fsrs_default_weights()) AS weights,
           u.time_zone, u.easy_days, u.balance_reviews,
           (SELECT x.sits_on::timestamp AT TIME ZONE u.time_zone FROM public.exam_dates x JOIN public.domains d ON d.exam_id = x.exam_id
            JOIN public.questions q ON q.domain_id = d.id WHERE q.id = p_question AND x.user_id = u.id) AS exam_day,
           (SELECT c FROM public.review_cards c WHERE c.user_id = p_user AND c.question_id = p_question FOR UPDATE) AS card
      INTO loaded
    FROM public.users u LEFT JOIN public.fsrs_weights f ON f.user_id = u.id WHERE u.id = p_user;
    retention := loaded.retention;
    weights := loaded.weights;
    exam_day := loaded.exam_day;
    card := loaded.card;
    IF card.question_id IS NOT NULL AND p_at < card.last_review THEN
        PERFORM public.review_card_rebuild(p_user, NULL);
        RETURN;
    END IF;
    IF card.question_id IS NULL THEN
        next := public.fsrs_review('learning', 0, NULL, NULL, NULL, p_rating, p_at, weights, retention);
    ELSE
        next := public.fsrs_review(card.state, card.step, card.stability, card.difficulty, card.last_review, p_rating, p_at, weights, retention);
    END IF;
    aimed := next.due;
    -- A review a day or more ahead goes on the student's calendar. Day 0 is the answer's own day
    -- in the student's time zone; each day's capacity comes from their easy days and holidays,
    -- and (when they spread their reviews) what is due that day from the other cards.
    IF next.state = 'review' AND next.due - p_at >= interval '1 day'
       AND (loaded.balance_reviews OR loaded.easy_days <> 'nnnnnnn'
            OR EXISTS (SELECT 1 FROM public.study_holidays h
                       WHERE h.user_id = p_user AND h.ends_on > (p_at AT TIME ZONE loaded.time_zone)::date)) THEN
        today := (p_at AT TIME ZONE loaded.time_zone)::date;
        interval_days := floor(extract(epoch FROM next.due - p_at) / 86400 + 0.5)::integer;
        -- Far enough to hold the range, a week past it, and the end of a holiday reaching beyond.
        SELECT greatest(r.upper_day + 7, coalesce(max(h.ends_on - today) + 7, 0)) INTO last_day
        FROM public.review_fuzz_range(interval_days, 36500) r
        LEFT JOIN public.study_holidays h ON h.user_id = p_user AND h.ends_on > today AND h.starts_on <= today + r.upper_day + 7
        GROUP BY r.upper_day;
        SELECT array_agg(CASE WHEN EXISTS (SELECT 1 FROM public.study_holidays h
                                           WHERE h.user_id = p_user AND today + k BETWEEN h.starts_on AND h.ends_on) THEN 0
                              ELSE CASE substr(loaded.easy_days, extract(isodow FROM today + k)::integer, 1)
                                   WHEN 'x' THEN 0 WHEN 'r' THEN 0.5 ELSE 1 END
                         END ORDER BY k),
               array_agg(coalesce(c.reviews, 0) ORDER BY k)
          INTO capacities, dues
        FROM generate_series(0, last_day) k
        LEFT JOIN (SELECT (r.due AT TIME ZONE loaded.time_zone)::date - today AS day, count(*)::integer AS reviews
                   FROM public.review_cards r
                   WHERE loaded.balance_reviews AND r.user_id = p_user AND r.question_id <> p_question
                     AND r.due >= (today::timestamp AT TIME ZONE loaded.time_zone)
                     AND r.due < ((today + last_day + 1)::timestamp AT TIME ZONE loaded.time_zone)
                   GROUP BY 1) AS c ON c.day = k;
        aimed := p_at + make_interval(secs => 86400::double precision * public.review_day_choice(
            interval_days, 36500, capacities, dues, loaded.balance_reviews, retention, next.stability, -weights[21]));
    END IF;
    IF exam_day IS NOT NULL AND p_at < exam_day - interval '1 day' AND aimed > exam_day - interval '1 day'
       AND public.fsrs_retrievability(next.stability, p_at, exam_day + interval '1 day', weights[21]) < retention THEN
        aimed := exam_day - interval '1 day';
    END IF;
    INSERT INTO public.review_cards (user_id, question_id, state, step, stability, difficulty, due, last_review, first_review, reviews, lapses)
    VALUES (p_user, p_question, next.state, next.step, next.stability, next.difficulty, aimed, p_at, p_at, 1, 0)
    ON CONFLICT (user_id, question_id) DO UPDATE SET
        state = EXCLUDED.state, step = EXCLUDED.step, stability = EXCLUDED.stability, difficulty = EXCLUDED.difficulty, due = EXCLUDED.due,
        last_review = EXCLUDED.last_review, reviews = review_cards.reviews + 1,
        lapses = review_cards.lapses + CASE WHEN p_rating = 1 AND review_cards.state = 'review' THEN 1 ELSE 0 END;
END
$$;


ALTER FUNCTION public.review_card_apply(p_user uuid, p_question uuid, p_rating integer, p_at timestamp with time zone) OWNER TO portal_auth;

--
-- Name: review_card_rebuild(uuid, uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.review_card_rebuild(p_user uuid, p_question uuid) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    review record;
    made integer;
BEGIN
    DELETE FROM public.review_cards c WHERE c.user_id = p_user AND (p_question IS NULL OR c.question_id = p_question);
    FOR review IN SELECT * FROM public.review_history(p_user, p_question) LOOP
        PERFORM public.review_card_apply(p_user, review.question_id, review.rating, review.reviewed_at);
    END LOOP;
    SELECT count(*) INTO made FROM public.review_cards c WHERE c.user_id = p_user AND (p_question IS NULL OR c.question_id = p_question);
    RETURN made;
END
$$;


ALTER FUNCTION public.review_card_rebuild(p_user uuid, p_question uuid) OWNER TO portal_auth;

--
-- Name: review_cards_rebuild(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.review_cards_rebuild(p_user uuid DEFAULT NULL::uuid, OUT cards integer, OUT differing integer) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    student uuid := coalesce(p_user, public.app_user_id());
    before jsonb;
BEGIN
    -- Another student's cards only for the owner's `portal rebuild-cards` (never for the app).
    IF student IS NULL OR (p_user IS NOT NULL AND p_user IS DISTINCT FROM public.app_user_id() AND session_user = 'portal_app') THEN
        RAISE EXCEPTION 'only one''s own cards are rebuilt' USING ERRCODE = '42501';
    END IF;
    SELECT coalesce(jsonb_object_agg(c.question_id, to_jsonb(c) - 'user_id'), '{}') INTO before FROM public.review_cards c WHERE c.user_id = student;
    cards := public.review_card_rebuild(student, NULL);
    SELECT count(*) INTO differing FROM public.review_cards c
    WHERE c.user_id = student AND before -> c.question_id::text IS DISTINCT FROM to_jsonb(c) - 'user_id';
    differing := differing + (SELECT count(*) FROM jsonb_object_keys(before) k
                              WHERE NOT EXISTS (SELECT 1 FROM public.review_cards c WHERE c.user_id = student AND c.question_id::text = k));
    -- Cards have no data-version trigger of their own (every other write of a card comes with
    -- an answer or a session that has one): a rebuild that changed any says so itself.
    IF differing > 0 THEN
        PERFORM public.reader_changed(student);
    END IF;
END
$$;


ALTER FUNCTION public.review_cards_rebuild(p_user uuid, OUT cards integer, OUT differing integer) OWNER TO portal_auth;

--
-- Name: review_day_choice(integer, integer, double precision[], integer[], boolean, double precision, double precision, double precision); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.review_day_choice(p_interval integer, p_maximum integer, p_capacity double precision[], p_due integer[], p_balance boolean, p_retention double precision, p_stability double precision, p_decay double precision) RETURNS integer
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    spread constant integer := 3;
    factor double precision := power(0.9::double precision, 1 / p_decay) - 1;
    range_lower integer := p_interval;
    range_upper integer := p_interval;
    chosen integer;
    early integer;
    first_after integer;
    found integer := 0;
    day integer;
    candidates integer[] := '{}';
BEGIN
    IF p_balance THEN
        SELECT r.lower_day, r.upper_day INTO range_lower, range_upper FROM public.review_fuzz_range(p_interval, p_maximum) r;
    END IF;
    -- Array element day + 1 holds day `day`; past the end a day is open (1) with nothing due.
    SELECT d INTO chosen FROM generate_series(range_lower, range_upper) d
    WHERE coalesce(p_capacity[d + 1], 1) > 0
    ORDER BY (CASE WHEN p_balance THEN coalesce(p_due[d + 1], 0) ELSE 0 END + 1) / coalesce(p_capacity[d + 1], 1),
             abs(d - p_interval), d
    LIMIT 1;
    IF chosen IS NOT NULL THEN
        RETURN chosen;
    END IF;
    -- Nothing open in range: the nearest open days before (never the answer's own day) …
    day := range_lower - 1;
    WHILE day >= 1 AND found < spread LOOP
        IF coalesce(p_capacity[day + 1], 1) > 0 THEN
            candidates := candidates || day;
            found := found + 1;
        END IF;
        day := day - 1;
    END LOOP;
    SELECT d INTO early FROM unnest(candidates) d
    ORDER BY (CASE WHEN p_balance THEN coalesce(p_due[d + 1], 0) ELSE 0 END + 1) / coalesce(p_capacity[d + 1], 1), abs(d - p_interval), d
    LIMIT 1;
    -- … and after.
    candidates := '{}';
    found := 0;
    day := range_upper + 1;
    WHILE found < spread LOOP
        IF coalesce(p_capacity[day + 1], 1) > 0 THEN
            candidates := candidates || day;
            found := found + 1;
        END IF;
        day := day + 1;
    END LOOP;
    first_after := candidates[1];
    IF early IS NOT NULL AND power(1 + factor * first_after / p_stability, p_decay) < p_retention - 0.05 THEN
        RETURN early;
    END IF;
    SELECT d INTO chosen FROM unnest(candidates) d
    ORDER BY (CASE WHEN p_balance THEN coalesce(p_due[d + 1], 0) ELSE 0 END + 1) / coalesce(p_capacity[d + 1], 1), abs(d - p_interval), d
    LIMIT 1;
    RETURN chosen;
END
$$;


ALTER FUNCTION public.review_day_choice(p_interval integer, p_maximum integer, p_capacity double precision[], p_due integer[], p_balance boolean, p_retention double precision, p_stability double precision, p_decay double precision) OWNER TO portal_owner;

--
-- Name: review_fuzz_range(integer, integer); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.review_fuzz_range(p_interval integer, p_maximum integer, OUT lower_day integer, OUT upper_day integer) RETURNS record
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    days double precision := p_interval;
    delta double precision;
BEGIN
    IF days < 2.5 THEN
        lower_day := p_interval;
        upper_day := p_interval;
        RETURN;
    END IF;
    delta := 1.0 + 0.15 * greatest(least(days, 7) - 2.5, 0) + 0.1 * greatest(least(days, 20) - 7, 0) + 0.05 * greatest(days - 20, 0);
    upper_day := least(floor(days + delta + 0.5)::integer, p_maximum);
    lower_day := least(greatest(2, floor(days - delta + 0.5)::integer), upper_day);
END
$$;


ALTER FUNCTION public.review_fuzz_range(p_interval integer, p_maximum integer, OUT lower_day integer, OUT upper_day integer) OWNER TO portal_owner;

--
-- Name: review_history(uuid, uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.review_history(p_user uuid, p_question uuid) RETURNS TABLE(question_id uuid, rating integer, reviewed_at timestamp with time zone)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT a.question_id, a.rating, CASE WHEN s.mode = 'mock' THEN s.finished_at ELSE a.answered_at END AS reviewed_at
    FROM public.answers a JOIN public.study_sessions s ON s.id = a.session_id
    WHERE a.user_id = p_user AND (p_question IS NULL OR a.question_id = p_question) AND a.rating IS NOT NULL
      AND (s.mode <> 'mock'
           OR (s.finished_at IS NOT NULL
               AND a.id = (SELECT c.id FROM public.counted_answers c WHERE c.session_id = a.session_id AND c.question_id = a.question_id)))
    ORDER BY reviewed_at, a.answered_at, a.id
$$;


ALTER FUNCTION public.review_history(p_user uuid, p_question uuid) OWNER TO portal_auth;

--
-- Name: rich_inlines_problem(jsonb, integer); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.rich_inlines_problem(p_inlines jsonb, p_depth integer) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    inline jsonb;
    problem text;
    href text;
BEGIN
    IF jsonb_typeof(p_inlines) IS DISTINCT FROM 'array' THEN RETURN 'a run of text must be a list of inlines'; END IF;
    IF p_depth > 24 THEN RETURN 'text nests more than 24 deep'; END IF;
    FOR inline IN SELECT value FROM jsonb_array_elements(p_inlines) LOOP
        IF jsonb_typeof(inline) IS DISTINCT FROM 'object' OR jsonb_typeof(inline -> 'type') IS DISTINCT FROM 'string' THEN
            RETURN 'an inline must be an object with a type';
        END IF;
        CASE inline ->> 'type'
        WHEN 'text', 'code' THEN
            IF jsonb_typeof(inline -> 'text') IS DISTINCT FROM 'string' THEN RETURN format('a %s inline must have its text', inline ->> 'type'); END IF;
        WHEN 'math' THEN
            problem := public.rich_math_problem(inline);
        WHEN 'break' THEN
            NULL;
        WHEN 'ruby' THEN
            -- RichTextRules.rubyProblem.
            IF jsonb_typeof(inline -> 'base') IS DISTINCT FROM 'string' OR jsonb_typeof(inline -> 'reading') IS DISTINCT FROM 'string'
               OR char_length(inline ->> 'base') NOT BETWEEN 1 AND 100 OR char_length(inline ->> 'reading') NOT BETWEEN 1 AND 100
               OR (inline ->> 'base') ~ '[{|}\\\n\r]' OR (inline ->> 'reading') ~ '[{|}\\\n\r]'
               OR (inline ->> 'base') !~ '\S' OR (inline ->> 'reading') !~ '\S' THEN
                RETURN 'a ruby needs its base text and its reading, 1 to 100 characters each without braces, bars, backslashes or line breaks: {漢字|かんじ}';
            END IF;
        WHEN 'emphasis', 'strong', 'sub', 'sup' THEN
            problem := public.rich_inlines_problem(inline -> 'inlines', p_depth + 1);
        WHEN 'link' THEN
            href := inline ->> 'href';
            -- RichTextRules.isAllowedLink: https, a host without \, no blank, control, quote or angle bracket.
            IF jsonb_typeof(inline -> 'href') IS DISTINCT FROM 'string' OR octet_length(href) > 2048
               OR href !~ '^https://[^/?#\\\x01-\x20\x7f"<>]+([/?#][^\x01-\x20\x7f"<>]*)?$' THEN
                RETURN format('a link must go to an https: address, not %s', left(coalesce(href, ''), 80));
            END IF;
            problem := public.rich_inlines_problem(inline -> 'inlines', p_depth + 1);
        ELSE
            RETURN format('no inline of type %s', left(inline ->> 'type', 20));
        END CASE;
        IF problem IS NOT NULL THEN RETURN problem; END IF;
    END LOOP;
    RETURN NULL;
END
$_$;


ALTER FUNCTION public.rich_inlines_problem(p_inlines jsonb, p_depth integer) OWNER TO portal_owner;

--
-- Name: rich_math_problem(jsonb); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.rich_math_problem(p_math jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT CASE
        WHEN jsonb_typeof(p_math -> 'tex') IS DISTINCT FROM 'string' THEN 'a formula must have its TeX'
        WHEN octet_length(p_math ->> 'tex') > 4096 THEN 'a formula is longer than 4 KB'
        WHEN p_math #>> '{mathml,name}' IS DISTINCT FROM 'mrow' OR p_math -> 'mathml' ? 'text' THEN 'a formula must be an mrow'
        ELSE public.math_node_problem(p_math -> 'mathml') END
$$;


ALTER FUNCTION public.rich_math_problem(p_math jsonb) OWNER TO portal_owner;

--
-- Name: rich_text_problem(jsonb, integer); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.rich_text_problem(p_blocks jsonb, p_depth integer DEFAULT 0) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
DECLARE
    block jsonb;
    item jsonb;
    cell jsonb;
    row_cells jsonb;
    width integer;
    problem text;
    kind text;
BEGIN
    IF jsonb_typeof(p_blocks) IS DISTINCT FROM 'array' THEN RETURN 'a text must be a list of blocks'; END IF;
    IF p_depth > 8 THEN RETURN 'blocks nest more than 8 deep'; END IF;
    FOR block IN SELECT value FROM jsonb_array_elements(p_blocks) LOOP
        IF jsonb_typeof(block) IS DISTINCT FROM 'object' OR jsonb_typeof(block -> 'type') IS DISTINCT FROM 'string' THEN
            RETURN 'a block must be an object with a type';
        END IF;
        kind := block ->> 'type';
        CASE kind
        WHEN 'paragraph' THEN
            problem := public.rich_inlines_problem(block -> 'inlines', p_depth);
        WHEN 'code' THEN
            IF jsonb_typeof(block -> 'text') IS DISTINCT FROM 'string' THEN RETURN 'a code block must have its text'; END IF;
            IF block ? 'language' AND block -> 'language' <> 'null'::jsonb
               AND (jsonb_typeof(block -> 'language') <> 'string' OR (block ->> 'language') !~ '^[a-z0-9+#-]{1,20}$') THEN
                RETURN format('"%s" is not a language name', left(block ->> 'language', 40));
            END IF;
        WHEN 'list' THEN
            IF jsonb_typeof(block -> 'ordered') IS DISTINCT FROM 'boolean' OR jsonb_typeof(block -> 'items') IS DISTINCT FROM 'array' THEN
                RETURN 'a list must say whether it is ordered and have its items';
            END IF;
            IF block ? 'start' AND (jsonb_typeof(block -> 'start') IS DISTINCT FROM 'number'
               OR (block ->> 'start')::numeric <> trunc((block ->> 'start')::numeric)) THEN
                RETURN 'a list must start at a whole number';
            END IF;
            IF block ? 'start' AND NOT (block ->> 'start')::numeric BETWEEN 0 AND 999999999 THEN
                RETURN format('a list cannot start at %s', block ->> 'start');
            END IF;
            FOR item IN SELECT value FROM jsonb_array_elements(block -> 'items') LOOP
                problem := public.rich_text_problem(item, p_depth + 1);
                EXIT WHEN problem IS NOT NULL;
            END LOOP;
        WHEN 'table' THEN
            IF jsonb_typeof(block -> 'header') IS DISTINCT FROM 'array' OR jsonb_typeof(block -> 'align') IS DISTINCT FROM 'array'
               OR jsonb_typeof(block -> 'rows') IS DISTINCT FROM 'array' THEN
                RETURN 'a table must have its header, alignments and rows';
            END IF;
            IF EXISTS (SELECT 1 FROM jsonb_array_elements(block -> 'align') AS a(value)
                       WHERE jsonb_typeof(a.value) <> 'string' OR a.value #>> '{}' NOT IN ('none', 'left', 'center', 'right')) THEN
                RETURN format('no alignment %s', left((SELECT a.value #>> '{}' FROM jsonb_array_elements(block -> 'align') AS a(value)
                       WHERE jsonb_typeof(a.value) <> 'string' OR a.value #>> '{}' NOT IN ('none', 'left', 'center', 'right') LIMIT 1), 20));
            END IF;
            width := jsonb_array_length(block -> 'header');
            IF width = 0 OR jsonb_array_length(block -> 'align') <> width
               OR EXISTS (SELECT 1 FROM jsonb_array_elements(block -> 'rows') AS r(value)
                          WHERE jsonb_typeof(r.value) <> 'array' OR jsonb_array_length(r.value) <> width) THEN
                RETURN 'a table''s rows, header and alignments must be as wide as each other';
            END IF;
            FOR cell IN SELECT value FROM jsonb_array_elements(block -> 'header') LOOP
                problem := public.rich_inlines_problem(cell, p_depth);
                IF problem IS NOT NULL THEN RETURN problem; END IF;
            END LOOP;
            FOR row_cells IN SELECT value FROM jsonb_array_elements(block -> 'rows') LOOP
                FOR cell IN SELECT value FROM jsonb_array_elements(row_cells) LOOP
                    problem := public.rich_inlines_problem(cell, p_depth);
                    IF problem IS NOT NULL THEN RETURN problem; END IF;
                END LOOP;
            END LOOP;
            IF block ? 'caption' AND block -> 'caption' <> 'null'::jsonb THEN
                problem := public.rich_inlines_problem(block -> 'caption', p_depth);
            END IF;
        WHEN 'math' THEN
            problem := public.rich_math_problem(block);
        WHEN 'quote' THEN
            problem := public.rich_text_problem(block -> 'blocks', p_depth + 1);
        WHEN 'picture' THEN
            IF jsonb_typeof(block -> 'src') IS DISTINCT FROM 'string' OR jsonb_typeof(block -> 'alt') IS DISTINCT FROM 'string' THEN
                RETURN 'a picture must have its address and alt text';
            END IF;
            IF (block ->> 'src') !~ '^/content-images/[A-Za-z0-9._-]{1,200}$' OR strpos(block ->> 'src', '..') > 0 THEN
                RETURN format('%s is not one of the portal''s pictures', left(block ->> 'src', 80));
            END IF;
            IF btrim(block ->> 'alt', ' ') = '' THEN
                RETURN format('the picture %s has no alt text', left(block ->> 'src', 80));
            END IF;
            IF block ? 'caption' AND block -> 'caption' <> 'null'::jsonb AND jsonb_typeof(block -> 'caption') <> 'string' THEN
                RETURN 'a picture''s caption must be text';
            END IF;
        ELSE
            RETURN format('no block of type %s', left(kind, 20));
        END CASE;
        IF problem IS NOT NULL THEN RETURN problem; END IF;
    END LOOP;
    RETURN NULL;
END
$_$;


ALTER FUNCTION public.rich_text_problem(p_blocks jsonb, p_depth integer) OWNER TO portal_owner;

--
-- Name: rs256_verifies(text, bytea, numeric, numeric, integer); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.rs256_verifies(p_input text, p_signature bytea, p_modulus numeric, p_exponent numeric, p_octets integer) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE STRICT
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    signature numeric;
    encoded bytea;
BEGIN
    IF octet_length(p_signature) <> p_octets OR p_octets < 62 THEN
        RETURN false;
    END IF;
    signature := public.bytes_numeric(p_signature);
    IF signature >= p_modulus THEN
        RETURN false;
    END IF;
    -- 0x00 0x01 FF…FF 0x00, the DER DigestInfo of SHA-256, the digest.
    encoded := '\x0001'::bytea || decode(repeat('ff', p_octets - 3 - 51), 'hex') || '\x00'::bytea
        || '\x3031300d060960864801650304020105000420'::bytea || sha256(convert_to(p_input, 'UTF8'));
    RETURN public.numeric_modpow(signature, p_exponent, p_modulus) = public.bytes_numeric(encoded);
END
$$;


ALTER FUNCTION public.rs256_verifies(p_input text, p_signature bytea, p_modulus numeric, p_exponent numeric, p_octets integer) OWNER TO portal_owner;

--
-- Name: schema_drop_policies(text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.schema_drop_policies(p_table text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    policy record;
BEGIN
    FOR policy IN SELECT p.policyname FROM pg_catalog.pg_policies p WHERE p.schemaname = 'public' AND p.tablename = p_table LOOP
        EXECUTE format('DROP POLICY %I ON public.%I', policy.policyname, p_table);
    END LOOP;
END
$$;


ALTER FUNCTION public.schema_drop_policies(p_table text) OWNER TO portal_owner;

--
-- Name: schema_drop_triggers(text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.schema_drop_triggers(p_table text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    name text;
BEGIN
    FOR name IN SELECT t.tgname FROM pg_catalog.pg_trigger t
                WHERE t.tgrelid = format('public.%I', p_table)::regclass AND NOT t.tgisinternal LOOP
        EXECUTE format('DROP TRIGGER %I ON public.%I', name, p_table);
    END LOOP;
END
$$;


ALTER FUNCTION public.schema_drop_triggers(p_table text) OWNER TO portal_owner;

--
-- Name: set_accommodation(uuid, numeric, integer, integer, boolean); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer, p_extra_attempts integer, p_reads_aloud boolean) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
    role text := public.app_role();
    student text;
    before record;
    stamp bigint := pg_catalog.pg_current_xact_id()::text::bigint;
BEGIN
    IF me IS NULL OR NOT (role = 'admin' OR (role = 'teacher' AND p_student = ANY (public.app_students()))) THEN
        RAISE EXCEPTION 'only a teacher of the student''s class or an admin sets accommodations' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_multiplier IS NULL OR p_multiplier NOT IN (1, 1.25, 1.5, 2) OR p_extra_minutes IS NULL OR p_extra_minutes NOT BETWEEN 0 AND 240
       OR p_extra_attempts IS NULL OR p_extra_attempts NOT BETWEEN 0 AND 5 OR p_reads_aloud IS NULL THEN
        RAISE EXCEPTION 'a time multiplier is 1, 1.25, 1.5 or 2, extra minutes 0 to 240, and extra attempts 0 to 5' USING ERRCODE = 'check_violation';
    END IF;
    SELECT u.username INTO student FROM public.users u WHERE u.id = p_student;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    SELECT a.time_multiplier, a.extra_minutes, a.extra_attempts, a.reads_aloud INTO before FROM public.accommodations a WHERE a.student_id = p_student FOR UPDATE;
    IF COALESCE(before.time_multiplier, 1) = p_multiplier AND COALESCE(before.extra_minutes, 0) = p_extra_minutes
       AND COALESCE(before.extra_attempts, 0) = p_extra_attempts AND COALESCE(before.reads_aloud, false) = p_reads_aloud THEN
        RETURN true;
    END IF;
    IF p_multiplier = 1 AND p_extra_minutes = 0 AND p_extra_attempts = 0 AND NOT p_reads_aloud THEN
        DELETE FROM public.accommodations WHERE student_id = p_student;
    ELSE
        INSERT INTO public.accommodations (student_id, time_multiplier, extra_minutes, extra_attempts, reads_aloud, set_by, set_at)
        VALUES (p_student, p_multiplier, p_extra_minutes, p_extra_attempts, p_reads_aloud, me, public.app_now())
        ON CONFLICT (student_id) DO UPDATE
        SET time_multiplier = EXCLUDED.time_multiplier, extra_minutes = EXCLUDED.extra_minutes, extra_attempts = EXCLUDED.extra_attempts,
            reads_aloud = EXCLUDED.reads_aloud, set_by = EXCLUDED.set_by, set_at = EXCLUDED.set_at;
    END IF;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT public.app_now(), me, u.display_name, 'accommodation.change', student,
           pg_catalog.jsonb_build_object('multiplier_before', COALESCE(before.time_multiplier, 1), 'multiplier', p_multiplier,
                                         'extra_minutes_before', COALESCE(before.extra_minutes, 0), 'extra_minutes', p_extra_minutes,
                                         'extra_attempts_before', COALESCE(before.extra_attempts, 0), 'extra_attempts', p_extra_attempts,
                                         'reads_aloud_before', COALESCE(before.reads_aloud, false), 'reads_aloud', p_reads_aloud)
    FROM public.users u WHERE u.id = me;
    UPDATE public.users SET data_version = stamp WHERE id = p_student AND data_version <> stamp;
    PERFORM pg_catalog.pg_notify('portal_readers', p_student::text || ':' || stamp);
    -- Read-aloud comes with the student's session: every instance drops its copy of it.
    IF COALESCE(before.reads_aloud, false) <> p_reads_aloud THEN
        PERFORM pg_catalog.pg_notify('portal_sessions', 'user:' || p_student::text);
    END IF;
    RETURN true;
END
$$;


ALTER FUNCTION public.set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer, p_extra_attempts integer, p_reads_aloud boolean) OWNER TO portal_auth;

--
-- Name: share_link_admits(uuid, bigint, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.share_link_admits(p_link uuid, p_exam bigint, p_mode text) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT EXISTS (SELECT 1 FROM public.share_links l
                   WHERE l.id = p_link AND l.exam_id = p_exam AND l.mode = p_mode AND l.revoked_at IS NULL
                     AND (l.expires_at IS NULL OR l.expires_at > public.app_now()))
$$;


ALTER FUNCTION public.share_link_admits(p_link uuid, p_exam bigint, p_mode text) OWNER TO portal_auth;

--
-- Name: share_link_as_shared(uuid, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.share_link_as_shared(p_link uuid, p_now timestamp with time zone) RETURNS TABLE(id uuid, title text, exam_id bigint, region_code text, exam_slug text, exam_title text, exam_language text, class_id uuid, class_name text, shared_by text, mode text, domains text[], difficulty_from integer, difficulty_to integer, question_count integer, joins_class boolean, due_at timestamp with time zone, expires_at timestamp with time zone, quiz_id uuid, time_limit_minutes integer)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT l.id, l.title, l.exam_id, r.code, e.slug, e.title, e.language, l.class_id, c.name, u.display_name, l.mode, l.domains,
           l.difficulty_from, l.difficulty_to, l.question_count, l.joins_class, l.due_at, l.expires_at, l.quiz_id, l.time_limit_minutes
    FROM public.share_links l
    JOIN public.exams e ON e.id = l.exam_id JOIN public.regions r ON r.id = e.region_id
    JOIN public.users u ON u.id = l.created_by
    LEFT JOIN public.classes c ON c.id = l.class_id
    WHERE l.id = p_link AND l.revoked_at IS NULL AND (l.expires_at IS NULL OR l.expires_at > greatest(p_now, public.app_now()))
$$;


ALTER FUNCTION public.share_link_as_shared(p_link uuid, p_now timestamp with time zone) OWNER TO portal_auth;

--
-- Name: share_link_attempts(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.share_link_attempts(p_link uuid) RETURNS TABLE(allowed integer, used integer)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT l.attempts + coalesce((SELECT a.extra_attempts FROM public.accommodations a WHERE a.student_id = public.app_user_id()), 0),
           (SELECT count(*)::integer FROM public.study_sessions s WHERE s.share_link_id = l.id AND s.user_id = public.app_user_id())
    FROM public.share_links l WHERE l.id = p_link AND public.app_user_id() IS NOT NULL
$$;


ALTER FUNCTION public.share_link_attempts(p_link uuid) OWNER TO portal_auth;

--
-- Name: share_link_by_token(bytea, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.share_link_by_token(p_hash bytea, p_now timestamp with time zone) RETURNS TABLE(id uuid, title text, exam_id bigint, region_code text, exam_slug text, exam_title text, exam_language text, class_id uuid, class_name text, shared_by text, mode text, domains text[], difficulty_from integer, difficulty_to integer, question_count integer, joins_class boolean, due_at timestamp with time zone, expires_at timestamp with time zone, quiz_id uuid, time_limit_minutes integer)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT s.* FROM public.share_links l CROSS JOIN LATERAL public.share_link_as_shared(l.id, p_now) AS s
    WHERE l.token_hash = p_hash
$$;


ALTER FUNCTION public.share_link_by_token(p_hash bytea, p_now timestamp with time zone) OWNER TO portal_auth;

--
-- Name: share_link_of_my_class(uuid, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.share_link_of_my_class(p_link uuid, p_now timestamp with time zone) RETURNS TABLE(id uuid, title text, exam_id bigint, region_code text, exam_slug text, exam_title text, exam_language text, class_id uuid, class_name text, shared_by text, mode text, domains text[], difficulty_from integer, difficulty_to integer, question_count integer, joins_class boolean, due_at timestamp with time zone, expires_at timestamp with time zone, quiz_id uuid, time_limit_minutes integer)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT s.* FROM public.share_link_as_shared(p_link, p_now) AS s
    WHERE EXISTS (SELECT 1 FROM public.class_members m
                  WHERE m.class_id = s.class_id AND m.user_id = public.app_user_id() AND m.left_at IS NULL)
$$;


ALTER FUNCTION public.share_link_of_my_class(p_link uuid, p_now timestamp with time zone) OWNER TO portal_auth;

--
-- Name: share_link_time_limit(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.share_link_time_limit(p_link uuid) RETURNS integer
    LANGUAGE sql STABLE STRICT SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT l.time_limit_minutes * 60 FROM public.share_links l WHERE l.id = p_link
$$;


ALTER FUNCTION public.share_link_time_limit(p_link uuid) OWNER TO portal_auth;

--
-- Name: sso_begin(bytea, bigint, text, text, bytea, boolean, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.sso_begin(p_state_hash bytea, p_provider bigint, p_nonce text, p_verifier text, p_browser bytea, p_linking boolean, p_return_to text, p_client text) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    wait integer;
BEGIN
    IF p_linking AND public.app_user_id() IS NULL THEN
        RAISE EXCEPTION 'a link is begun by a signed-in user' USING ERRCODE = '42501';
    END IF;
    wait := public.rate_limit('sso_begin', p_client, 30, 60, true);
    IF wait = 0 THEN
        wait := public.rate_limit('sso_begin_all', '', 20000, 600, true);
    END IF;
    IF wait > 0 THEN
        RETURN wait;
    END IF;
    INSERT INTO public.sso_states (state_hash, provider_id, nonce, verifier, browser_hash, link_user, return_to, created_at)
    VALUES (p_state_hash, p_provider, p_nonce, p_verifier, p_browser, CASE WHEN p_linking THEN public.app_user_id() END, p_return_to, public.app_now());
    RETURN 0;
END
$$;


ALTER FUNCTION public.sso_begin(p_state_hash bytea, p_provider bigint, p_nonce text, p_verifier text, p_browser bytea, p_linking boolean, p_return_to text, p_client text) OWNER TO portal_auth;

--
-- Name: sso_callback(text, bytea, bigint, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.sso_callback(p_state text, p_browser bytea, p_provider bigint, p_code text, p_redirect_uri text) RETURNS TABLE(outcome text, linking boolean, return_to text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    taken record;
BEGIN
    SELECT s.* INTO taken FROM public.sso_states s WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'unknown', NULL::boolean, NULL::text;
        RETURN;
    END IF;
    IF taken.used_at IS NOT NULL THEN
        RETURN QUERY SELECT 'used', NULL::boolean, NULL::text;
        RETURN;
    END IF;
    UPDATE public.sso_states SET used_at = now_at WHERE state_hash = taken.state_hash;
    IF taken.created_at < now_at - interval '10 minutes' THEN
        RETURN QUERY SELECT 'expired', NULL::boolean, NULL::text;
    ELSIF taken.browser_hash <> p_browser THEN
        RETURN QUERY SELECT 'other_browser', NULL::boolean, NULL::text;
    ELSIF taken.provider_id <> p_provider THEN
        RETURN QUERY SELECT 'wrong_provider', NULL::boolean, NULL::text;
    ELSE
        INSERT INTO public.sso_exchanges (state_hash, code, redirect_uri, requested_at) VALUES (taken.state_hash, p_code, p_redirect_uri, now_at);
        PERFORM pg_notify('sso_exchanges', '');
        RETURN QUERY SELECT 'ok', taken.link_user IS NOT NULL, taken.return_to;
    END IF;
END
$$;


ALTER FUNCTION public.sso_callback(p_state text, p_browser bytea, p_provider bigint, p_code text, p_redirect_uri text) OWNER TO portal_auth;

--
-- Name: sso_exchange_answered(bytea, text, text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.sso_exchange_answered(p_state_hash bytea, p_id_token text, p_problem text) RETURNS void
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE public.sso_exchanges x SET id_token = p_id_token, problem = left(p_problem, 500), answered_at = public.app_now(), leased_until = NULL
    WHERE x.state_hash = p_state_hash AND x.answered_at IS NULL
$$;


ALTER FUNCTION public.sso_exchange_answered(p_state_hash bytea, p_id_token text, p_problem text) OWNER TO portal_owner;

--
-- Name: sso_exchanges_due(integer); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.sso_exchanges_due(p_limit integer) RETURNS TABLE(state_hash bytea, code text, redirect_uri text, verifier text, provider_id bigint)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    WITH due AS (
        SELECT x.state_hash FROM public.sso_exchanges x
        WHERE x.answered_at IS NULL AND (x.leased_until IS NULL OR x.leased_until < public.app_now())
          AND x.requested_at > public.app_now() - interval '1 minute'
        ORDER BY x.requested_at LIMIT p_limit FOR UPDATE SKIP LOCKED
    ), leased AS (
        UPDATE public.sso_exchanges x SET leased_until = public.app_now() + interval '1 minute' FROM due WHERE x.state_hash = due.state_hash
        RETURNING x.state_hash, x.code, x.redirect_uri
    )
    SELECT l.state_hash, l.code, l.redirect_uri, s.verifier, s.provider_id FROM leased l JOIN public.sso_states s ON s.state_hash = l.state_hash
$$;


ALTER FUNCTION public.sso_exchanges_due(p_limit integer) OWNER TO portal_owner;

--
-- Name: sso_finish(bytea, bigint, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.sso_finish(p_browser bytea, p_provider bigint, p_session text, p_csrf text, p_user_agent text) RETURNS TABLE(outcome text, user_id uuid, return_to text, problem text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    flow record;
    provider record;
    verified record;
    payload jsonb;
    user_subject text;
    seen text[] := '{}';
    email text;
    is_teacher boolean := false;
    account record;
    owner uuid;
BEGIN
    SELECT s.state_hash, s.nonce, s.link_user, s.return_to, x.requested_at, x.id_token, x.problem AS failure, x.answered_at INTO flow
    FROM public.sso_states s JOIN public.sso_exchanges x ON x.state_hash = s.state_hash
    WHERE s.browser_hash = p_browser AND s.provider_id = p_provider AND x.finished_at IS NULL AND s.used_at > now_at - interval '10 minutes'
    ORDER BY x.requested_at DESC LIMIT 1
    FOR UPDATE OF x;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'no_exchange', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    IF flow.answered_at IS NULL THEN
        IF flow.requested_at < now_at - interval '1 minute' THEN
            UPDATE public.sso_exchanges x SET finished_at = now_at WHERE x.state_hash = flow.state_hash;
            RETURN QUERY SELECT 'timed_out', NULL::uuid, NULL::text, NULL::text;
        ELSE
            RETURN QUERY SELECT 'pending', NULL::uuid, NULL::text, NULL::text;
        END IF;
        RETURN;
    END IF;
    IF flow.id_token IS NULL THEN
        UPDATE public.sso_exchanges x SET finished_at = now_at WHERE x.state_hash = flow.state_hash;
        RETURN QUERY SELECT 'exchange_failed', NULL::uuid, NULL::text, flow.failure;
        RETURN;
    END IF;
    SELECT p.* INTO provider FROM public.sso_providers p WHERE p.id = p_provider;
    SELECT v.* INTO verified FROM public.jwt_verified(flow.id_token, provider.jwks_uri) v;
    IF verified.outcome = 'keys_pending' THEN
        PERFORM public.key_set_wanted(provider.jwks_uri);
        RETURN QUERY SELECT 'pending', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    UPDATE public.sso_exchanges x SET finished_at = now_at WHERE x.state_hash = flow.state_hash;
    IF verified.outcome <> 'ok' THEN
        RETURN QUERY SELECT verified.outcome, NULL::uuid, NULL::text, verified.problem;
        RETURN;
    END IF;
    payload := verified.claims;
    user_subject := CASE WHEN jsonb_typeof(payload->'sub') = 'string' THEN payload->>'sub' END;
    IF payload->>'iss' IS DISTINCT FROM provider.issuer THEN
        RETURN QUERY SELECT 'wrong_issuer', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    ELSIF NOT public.jwt_meant_for(payload, provider.client_id) THEN
        RETURN QUERY SELECT 'wrong_audience', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    ELSIF payload->>'nonce' IS DISTINCT FROM flow.nonce THEN
        RETURN QUERY SELECT 'wrong_nonce', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    ELSIF user_subject IS NULL OR length(user_subject) NOT BETWEEN 1 AND 255 THEN
        RETURN QUERY SELECT 'no_user', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    -- The admitted domains: a verified e-mail's domain, or the hd / tid claim.
    IF cardinality(provider.allowed_domains) > 0 THEN
        email := CASE WHEN jsonb_typeof(payload->'email') = 'string' AND payload->'email_verified' IS DISTINCT FROM 'false'::jsonb THEN payload->>'email' END;
        IF email LIKE '%@%' THEN
            seen := seen || lower(reverse(split_part(reverse(email), '@', 1)));
        END IF;
        IF jsonb_typeof(payload->'hd') = 'string' THEN seen := seen || lower(payload->>'hd'); END IF;
        IF jsonb_typeof(payload->'tid') = 'string' THEN seen := seen || lower(payload->>'tid'); END IF;
        IF NOT seen && (SELECT array_agg(lower(d)) FROM unnest(provider.allowed_domains) d) THEN
            RETURN QUERY SELECT 'domain_not_allowed', NULL::uuid, NULL::text, left(coalesce(seen[1], '—'), 100);
            RETURN;
        END IF;
    END IF;
    IF provider.teacher_claim IS NOT NULL AND cardinality(provider.teacher_values) > 0 THEN
        is_teacher := CASE jsonb_typeof(payload->provider.teacher_claim)
            WHEN 'string' THEN payload->>provider.teacher_claim = ANY (provider.teacher_values)
            WHEN 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements_text(payload->provider.teacher_claim) v WHERE v = ANY (provider.teacher_values))
            ELSE false END;
    END IF;
    IF NOT public.token_first_use(flow.id_token, payload) THEN
        RETURN QUERY SELECT 'replayed', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    UPDATE public.sso_states s SET signed_in_at = now_at WHERE s.state_hash = flow.state_hash;

    IF flow.link_user IS NOT NULL THEN
        IF public.app_user_id() IS DISTINCT FROM flow.link_user THEN
            RETURN QUERY SELECT 'link_signed_out', NULL::uuid, NULL::text, NULL::text;
            RETURN;
        END IF;
        SELECT i.user_id INTO owner FROM public.external_identities i WHERE i.kind = 'sso' AND i.issuer = provider.issuer AND i.subject = user_subject;
        IF owner IS NOT NULL AND owner <> flow.link_user THEN
            RETURN QUERY SELECT 'link_taken', NULL::uuid, NULL::text, NULL::text;
            RETURN;
        END IF;
        INSERT INTO public.external_identities (kind, issuer, subject, user_id) VALUES ('sso', provider.issuer, user_subject, flow.link_user)
        ON CONFLICT (kind, issuer, subject) DO NOTHING;
        RETURN QUERY SELECT 'linked', flow.link_user, flow.return_to, NULL::text;
        RETURN;
    END IF;
    SELECT a.id, a.disabled INTO account
    FROM public.external_account('sso', provider.issuer, user_subject, public.jwt_display_name(payload), 'Student', is_teacher, now_at) a;
    IF account.disabled THEN
        RETURN QUERY SELECT 'disabled', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    PERFORM public.auth_open_session(account.id, p_session, p_csrf, p_user_agent, now_at);
    RETURN QUERY SELECT 'ok', account.id, flow.return_to, NULL::text;
END
$$;


ALTER FUNCTION public.sso_finish(p_browser bytea, p_provider bigint, p_session text, p_csrf text, p_user_agent text) OWNER TO portal_auth;

--
-- Name: sso_unlink(text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.sso_unlink(p_issuer text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL OR NOT EXISTS (SELECT 1 FROM public.external_identities i WHERE i.user_id = me AND i.kind = 'sso' AND i.issuer = p_issuer) THEN
        RETURN 'not_linked';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.users u WHERE u.id = me AND u.password_hash IS NOT NULL)
       AND NOT EXISTS (SELECT 1 FROM public.external_identities i WHERE i.user_id = me AND NOT (i.kind = 'sso' AND i.issuer = p_issuer)) THEN
        RETURN 'last_way_in';
    END IF;
    DELETE FROM public.external_identities i WHERE i.user_id = me AND i.kind = 'sso' AND i.issuer = p_issuer;
    RETURN 'unlinked';
END
$$;


ALTER FUNCTION public.sso_unlink(p_issuer text) OWNER TO portal_auth;

--
-- Name: study_session_set_aside(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.study_session_set_aside(p_session uuid) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
    guest bytea := public.app_guest_key();
BEGIN
    UPDATE public.study_sessions s SET set_aside = true
    WHERE s.id = p_session AND s.mode = 'mock' AND s.finished_at IS NULL
      AND ((s.user_id IS NOT NULL AND s.user_id = me) OR (s.user_id IS NULL AND me IS NULL AND s.guest_key = guest));
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    RETURN public.finish_study_session(p_session, public.app_now());
END
$$;


ALTER FUNCTION public.study_session_set_aside(p_session uuid) OWNER TO portal_auth;

--
-- Name: study_sessions_admit(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.study_sessions_admit() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
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
$$;


ALTER FUNCTION public.study_sessions_admit() OWNER TO portal_owner;

--
-- Name: study_sessions_attempts(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.study_sessions_attempts() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    limit_attempts integer;
    extra integer;
    used integer;
BEGIN
    IF NEW.share_link_id IS NULL THEN
        RETURN NEW;
    END IF;
    SELECT l.attempts INTO limit_attempts FROM public.share_links l WHERE l.id = NEW.share_link_id;
    IF limit_attempts IS NULL THEN
        RETURN NEW;
    END IF;
    IF NEW.user_id IS NULL THEN
        RAISE EXCEPTION 'this assignment counts attempts: sign in to start it' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.user_id IS DISTINCT FROM public.app_user_id() THEN
        RETURN NEW;
    END IF;
    -- One start at a time per student and link, so two at once cannot both take the last attempt.
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(NEW.share_link_id::text || NEW.user_id::text, 0));
    SELECT coalesce((SELECT a.extra_attempts FROM public.accommodations a WHERE a.student_id = NEW.user_id), 0) INTO extra;
    SELECT count(*) INTO used FROM public.study_sessions s WHERE s.share_link_id = NEW.share_link_id AND s.user_id = NEW.user_id;
    IF used >= limit_attempts + extra THEN
        RAISE EXCEPTION 'no attempts left at this assignment' USING ERRCODE = 'check_violation', DETAIL = 'attempts';
    END IF;
    RETURN NEW;
END
$$;


ALTER FUNCTION public.study_sessions_attempts() OWNER TO portal_auth;

--
-- Name: study_sessions_frozen(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.study_sessions_frozen() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF OLD.finished_at IS NOT NULL THEN
        IF OLD.user_id IS NULL AND NEW.user_id IS NOT NULL AND NEW.guest_key IS NULL
           AND to_jsonb(NEW) - 'user_id' - 'guest_key' = to_jsonb(OLD) - 'user_id' - 'guest_key' THEN
            RETURN NEW;
        END IF;
        IF OLD.user_id IS NOT NULL AND NEW.user_id IS NULL AND NEW.anonymous_key IS NOT NULL
           AND to_jsonb(NEW) - 'user_id' - 'anonymous_key' = to_jsonb(OLD) - 'user_id' - 'anonymous_key' THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'study session % has ended', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;


ALTER FUNCTION public.study_sessions_frozen() OWNER TO portal_owner;

--
-- Name: teacher_invitation_accept(text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.teacher_invitation_accept(p_token text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
    invitation record;
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'only a signed-in account accepts an invitation' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF public.app_role() <> 'student' THEN
        RETURN 'teaches';
    END IF;
    SELECT i.id, i.school, i.expires_at, i.uses_left, i.revoked_at INTO invitation
    FROM public.teacher_invitations i
    WHERE i.token_hash = pg_catalog.sha256(pg_catalog.convert_to(coalesce(p_token, ''), 'UTF8')) FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'unknown';
    END IF;
    IF invitation.revoked_at IS NOT NULL THEN
        RETURN 'revoked';
    END IF;
    IF invitation.expires_at <= public.app_now() THEN
        RETURN 'expired';
    END IF;
    IF invitation.uses_left = 0 THEN
        RETURN 'used';
    END IF;
    UPDATE public.teacher_invitations SET uses_left = uses_left - 1 WHERE id = invitation.id;
    UPDATE public.users SET role = 'teacher' WHERE id = me AND role = 'student';
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT public.app_now(), me, u.display_name, 'teacher-invitation.used', u.username, pg_catalog.jsonb_build_object('school', invitation.school)
    FROM public.users u WHERE u.id = me;
    RETURN 'accepted';
END
$$;


ALTER FUNCTION public.teacher_invitation_accept(p_token text) OWNER TO portal_auth;

--
-- Name: teacher_invitation_look(text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.teacher_invitation_look(p_token text) RETURNS TABLE(school text, state text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT i.school,
           CASE WHEN i.revoked_at IS NOT NULL THEN 'revoked' WHEN i.expires_at <= public.app_now() THEN 'expired'
                WHEN i.uses_left = 0 THEN 'used' ELSE 'open' END
    FROM public.teacher_invitations i
    WHERE i.token_hash = pg_catalog.sha256(pg_catalog.convert_to(coalesce(p_token, ''), 'UTF8'))
$$;


ALTER FUNCTION public.teacher_invitation_look(p_token text) OWNER TO portal_auth;

--
-- Name: teacher_make_account_batch(uuid, jsonb); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.teacher_make_account_batch(p_class uuid, p_people jsonb) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    made jsonb;
    batch uuid;
BEGIN
    IF jsonb_typeof(p_people) <> 'array' OR EXISTS (
        SELECT 1 FROM jsonb_array_elements(p_people) p
        WHERE jsonb_typeof(p->'shown') IS DISTINCT FROM 'string'
           OR encode(sha256(convert_to(replace(upper(p->>'shown'), '-', ''), 'UTF8')), 'hex') IS DISTINCT FROM lower(p->>'code')) THEN
        RAISE EXCEPTION 'each card''s code must be the code whose hash is given' USING ERRCODE = 'check_violation';
    END IF;
    SELECT jsonb_agg(jsonb_build_object('user', t.user_id, 'code', p_people->((t.ord - 1)::int)->>'shown') ORDER BY t.ord) INTO made
    FROM public.teacher_make_accounts(p_class, p_people) WITH ORDINALITY AS t(user_id, username, display_name, ord);
    INSERT INTO public.class_account_batches (class_id, teacher_id, made_at, cards)
    VALUES (p_class, public.app_user_id(), public.app_now(), coalesce(made, '[]'::jsonb))
    RETURNING id INTO batch;
    RETURN batch;
END
$$;


ALTER FUNCTION public.teacher_make_account_batch(p_class uuid, p_people jsonb) OWNER TO portal_auth;

--
-- Name: teacher_make_accounts(uuid, jsonb); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.teacher_make_accounts(p_class uuid, p_people jsonb) RETURNS TABLE(user_id uuid, username text, display_name text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $_$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    class_name text;
    person jsonb;
    wanted text;
    candidate text;
    name_given text;
    made uuid;
    suffix integer;
    total integer := jsonb_array_length(p_people);
BEGIN
    SELECT c.name INTO class_name FROM public.classes c
    WHERE c.id = p_class AND (c.teacher_id = me OR public.app_role() = 'admin');
    IF me IS NULL OR class_name IS NULL THEN
        RAISE EXCEPTION 'only the class''s teacher makes accounts for it' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF total < 1 OR total > 100 THEN
        RAISE EXCEPTION 'between 1 and 100 accounts at once' USING ERRCODE = 'check_violation';
    END IF;
    IF (SELECT count(*) FROM public.users u WHERE u.made_by = me AND u.created_at > now_at - interval '1 day') + total > 300 THEN
        RAISE EXCEPTION 'at most 300 accounts a day' USING ERRCODE = 'program_limit_exceeded';
    END IF;
    FOR person IN SELECT value FROM jsonb_array_elements(p_people) LOOP
        name_given := btrim(person->>'name');
        wanted := lower(person->>'username');
        IF wanted IS NULL OR wanted !~ '^[a-z0-9][a-z0-9._-]{1,33}$' OR length(coalesce(person->>'code', '')) <> 64 THEN
            RAISE EXCEPTION 'each person needs a name, a username of 2 to 34 letters, digits, dots or dashes, and a code''s hash'
                USING ERRCODE = 'check_violation';
        END IF;
        made := NULL;
        suffix := 1;
        WHILE made IS NULL LOOP
            candidate := wanted || CASE WHEN suffix = 1 AND length(wanted) >= 3 THEN '' ELSE suffix::text END;
            INSERT INTO public.users AS u (username, display_name, role, made_by, created_at)
            VALUES (candidate, name_given, 'student', me, now_at)
            ON CONFLICT (lower(username)) DO NOTHING
            RETURNING u.id INTO made;
            suffix := suffix + 1;
        END LOOP;
        INSERT INTO public.class_members (class_id, user_id, joined_at) VALUES (p_class, made, now_at);
        INSERT INTO public.password_resets (user_id, code_hash, issued_by, issued_at, expires_at)
        VALUES (made, decode(person->>'code', 'hex'), me, now_at, now_at + interval '14 days');
        RETURN QUERY SELECT made, candidate, name_given;
    END LOOP;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT now_at, me, u.display_name, 'class.accounts-made', class_name, pg_catalog.jsonb_build_object('count', total)
    FROM public.users u WHERE u.id = me;
END
$_$;


ALTER FUNCTION public.teacher_make_accounts(p_class uuid, p_people jsonb) OWNER TO portal_auth;

--
-- Name: teacher_request_decide(uuid, boolean, text, text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.teacher_request_decide(p_request uuid, p_approve boolean, p_subject text, p_text text, p_html text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
    request record;
    address text;
    verdict text := CASE WHEN p_approve THEN 'approved' ELSE 'refused' END;
BEGIN
    IF me IS NULL OR public.app_role() <> 'admin' THEN
        RAISE EXCEPTION 'only an admin decides who teaches' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_approve IS NULL THEN
        RAISE EXCEPTION 'a decision approves or refuses' USING ERRCODE = 'check_violation';
    END IF;
    SELECT t.id, t.user_id, t.school, t.decision, u.username, u.display_name, u.locale INTO request
    FROM public.teacher_requests t JOIN public.users u ON u.id = t.user_id
    WHERE t.id = p_request FOR UPDATE OF t;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF request.decision IS NOT NULL THEN
        RETURN request.decision;
    END IF;
    UPDATE public.teacher_requests SET decision = verdict, decided_at = public.app_now(), decided_by = me WHERE id = p_request;
    IF p_approve THEN
        UPDATE public.users SET role = 'teacher' WHERE id = request.user_id AND role = 'student';
    END IF;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT public.app_now(), me, u.display_name, 'teacher-request.' || verdict, request.username,
           pg_catalog.jsonb_build_object('school', request.school)
    FROM public.users u WHERE u.id = me;
    IF p_subject IS NOT NULL THEN
        SELECT e.email INTO address FROM public.user_emails e WHERE e.user_id = request.user_id LIMIT 1;
        IF address IS NOT NULL THEN
            PERFORM public.mail_queue('teacher-request', address, request.display_name, coalesce(request.locale, 'en'),
                                      p_subject, p_text, p_html, NULL, NULL);
        END IF;
    END IF;
    RETURN verdict;
END
$$;


ALTER FUNCTION public.teacher_request_decide(p_request uuid, p_approve boolean, p_subject text, p_text text, p_html text) OWNER TO portal_auth;

--
-- Name: teacher_request_file(text, text); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.teacher_request_file(p_school text, p_note text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    me uuid := public.app_user_id();
    v_school text := btrim(coalesce(p_school, ''));
    v_note text := btrim(coalesce(p_note, ''));
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'only a signed-in account asks to teach' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF public.app_role() <> 'student' THEN
        RETURN 'teaches';
    END IF;
    -- The open request, locked: two sends at once update it one after the other.
    UPDATE public.teacher_requests t SET school = v_school, note = v_note
    WHERE t.user_id = me AND t.decision IS NULL;
    IF FOUND THEN
        RETURN 'updated';
    END IF;
    BEGIN
        INSERT INTO public.teacher_requests (user_id, school, note, created_at)
        VALUES (me, v_school, v_note, public.app_now());
    EXCEPTION WHEN unique_violation THEN
        -- Filed by the same account's other send a moment ago.
        UPDATE public.teacher_requests t SET school = v_school, note = v_note
        WHERE t.user_id = me AND t.decision IS NULL;
        RETURN 'updated';
    END;
    RETURN 'filed';
END
$$;


ALTER FUNCTION public.teacher_request_file(p_school text, p_note text) OWNER TO portal_auth;

--
-- Name: teaches(uuid); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.teaches(p_student uuid) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT p_student = ANY (public.app_students())
$$;


ALTER FUNCTION public.teaches(p_student uuid) OWNER TO portal_auth;

--
-- Name: token_first_use(text, jsonb); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.token_first_use(p_token text, p_claims jsonb) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO public.used_tokens (digest, expires_at)
    VALUES (sha256(convert_to(p_token, 'UTF8')), to_timestamp((p_claims->>'exp')::numeric) + interval '1 minute')
    ON CONFLICT DO NOTHING;
    RETURN FOUND;
END
$$;


ALTER FUNCTION public.token_first_use(p_token text, p_claims jsonb) OWNER TO portal_owner;

--
-- Name: typed_answer_outcome(jsonb, text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.typed_answer_outcome(p_rule jsonb, p_typed text, OUT correct boolean, OUT score double precision) RETURNS record
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    rule text := coalesce(p_rule ->> 'match', 'exact');
    tolerance double precision := coalesce((p_rule ->> 'tolerance')::double precision, 0);
    typed_number double precision := CASE WHEN rule = 'numeric' THEN public.fill_in_number(p_typed) END;
BEGIN
    correct := EXISTS (SELECT 1 FROM jsonb_array_elements_text(p_rule -> 'accepted') AS a
                       WHERE public.fill_in_matches(rule, p_typed, typed_number, a, tolerance));
    score := CASE WHEN correct THEN 1 ELSE coalesce((
        SELECT max((p ->> 'share')::double precision) FROM jsonb_array_elements(coalesce(p_rule -> 'partial', '[]')) AS p
        WHERE public.fill_in_matches(rule, p_typed, typed_number, p ->> 'answer', coalesce((p ->> 'tolerance')::double precision, tolerance))), 0) END;
END
$$;


ALTER FUNCTION public.typed_answer_outcome(p_rule jsonb, p_typed text, OUT correct boolean, OUT score double precision) OWNER TO portal_owner;

--
-- Name: typed_rule_problem(jsonb, text, text); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.typed_rule_problem(p_rule jsonb, p_subject text, p_prefix text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    rule text := 'exact';
    answer jsonb;
    position integer := 0;
    normal text;
BEGIN
    IF p_rule ? 'match' THEN
        IF jsonb_typeof(p_rule -> 'match') <> 'string' OR NOT (p_rule ->> 'match' IN ('exact', 'case-insensitive', 'numeric')) THEN
            RETURN p_prefix || 'match must be exact, case-insensitive or numeric';
        END IF;
        rule := p_rule ->> 'match';
    END IF;
    IF jsonb_typeof(p_rule -> 'accepted') IS DISTINCT FROM 'array' OR jsonb_array_length(p_rule -> 'accepted') NOT BETWEEN 1 AND 20 THEN
        RETURN format('%s needs 1 to 20 accepted answers', p_subject);
    END IF;
    FOR answer IN SELECT * FROM jsonb_array_elements(p_rule -> 'accepted') LOOP
        IF jsonb_typeof(answer) <> 'string' THEN
            RETURN p_prefix || format('accepted answer %s is not text', position);
        END IF;
        normal := public.fill_in_normalized(answer #>> '{}');
        IF normal = '' THEN
            RETURN p_prefix || format('accepted answer %s is empty', position);
        END IF;
        IF length(normal) > 200 THEN
            RETURN p_prefix || format('accepted answer %s is longer than 200 characters', position);
        END IF;
        IF rule = 'numeric' AND public.fill_in_number(normal) IS NULL THEN
            RETURN p_prefix || format('accepted answer %s is not a number', position);
        END IF;
        position := position + 1;
    END LOOP;
    IF p_rule ? 'tolerance' THEN
        IF rule <> 'numeric' THEN
            RETURN p_prefix || 'a tolerance applies only to numeric answers';
        END IF;
        IF jsonb_typeof(p_rule -> 'tolerance') <> 'number' OR (p_rule ->> 'tolerance')::numeric < 0 THEN
            RETURN p_prefix || 'the tolerance must be a number, 0 or more';
        END IF;
    END IF;
    IF p_rule ? 'partial' THEN
        IF jsonb_typeof(p_rule -> 'partial') <> 'array' OR jsonb_array_length(p_rule -> 'partial') > 20 THEN
            RETURN p_prefix || 'partial must be a list of at most 20 answers with their share';
        END IF;
        position := 0;
        FOR answer IN SELECT * FROM jsonb_array_elements(p_rule -> 'partial') LOOP
            IF jsonb_typeof(answer) <> 'object' OR jsonb_typeof(answer -> 'answer') IS DISTINCT FROM 'string'
               OR EXISTS (SELECT 1 FROM jsonb_object_keys(answer) AS k WHERE NOT (k IN ('answer', 'share', 'tolerance'))) THEN
                RETURN p_prefix || format('partly right answer %s must be an object with answer, share and, for a number, tolerance', position);
            END IF;
            normal := public.fill_in_normalized(answer ->> 'answer');
            IF normal = '' THEN
                RETURN p_prefix || format('partly right answer %s is empty', position);
            END IF;
            IF length(normal) > 200 THEN
                RETURN p_prefix || format('partly right answer %s is longer than 200 characters', position);
            END IF;
            IF rule = 'numeric' AND public.fill_in_number(normal) IS NULL THEN
                RETURN p_prefix || format('partly right answer %s is not a number', position);
            END IF;
            IF jsonb_typeof(answer -> 'share') IS DISTINCT FROM 'number' OR (answer ->> 'share')::numeric <= 0 OR (answer ->> 'share')::numeric >= 1 THEN
                RETURN p_prefix || format('partly right answer %s needs a share of the marks more than 0 and less than 1', position);
            END IF;
            IF answer ? 'tolerance' THEN
                IF rule <> 'numeric' THEN
                    RETURN p_prefix || 'a tolerance applies only to numeric answers';
                END IF;
                IF jsonb_typeof(answer -> 'tolerance') <> 'number' OR (answer ->> 'tolerance')::numeric < 0 THEN
                    RETURN p_prefix || 'the tolerance must be a number, 0 or more';
                END IF;
            END IF;
            position := position + 1;
        END LOOP;
    END IF;
    RETURN NULL;
END
$$;


ALTER FUNCTION public.typed_rule_problem(p_rule jsonb, p_subject text, p_prefix text) OWNER TO portal_owner;

--
-- Name: users_end_sessions(); Type: FUNCTION; Schema: public; Owner: portal_auth
--

CREATE FUNCTION public.users_end_sessions() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    DELETE FROM public.auth_sessions WHERE user_id = NEW.id;
    RETURN NEW;
END
$$;


ALTER FUNCTION public.users_end_sessions() OWNER TO portal_auth;

--
-- Name: users_visibility_version(); Type: FUNCTION; Schema: public; Owner: portal_owner
--

CREATE FUNCTION public.users_visibility_version() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    NEW.data_version := pg_catalog.pg_current_xact_id()::text::bigint;
    PERFORM pg_catalog.pg_notify('portal_readers', NEW.id::text || ':' || NEW.data_version);
    RETURN NEW;
END
$$;


ALTER FUNCTION public.users_visibility_version() OWNER TO portal_owner;

SET default_table_access_method = heap;

--
-- Name: accommodations; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.accommodations (
    student_id uuid NOT NULL,
    time_multiplier numeric(3,2) DEFAULT 1 NOT NULL,
    extra_minutes integer DEFAULT 0 NOT NULL,
    set_by uuid,
    set_at timestamp with time zone NOT NULL,
    extra_attempts integer DEFAULT 0 NOT NULL,
    reads_aloud boolean DEFAULT false NOT NULL,
    CONSTRAINT accommodations_extra_attempts_check CHECK (((extra_attempts >= 0) AND (extra_attempts <= 5))),
    CONSTRAINT accommodations_extra_minutes_check CHECK (((extra_minutes >= 0) AND (extra_minutes <= 240))),
    CONSTRAINT accommodations_time_multiplier_check CHECK ((time_multiplier = ANY (ARRAY[(1)::numeric, 1.25, 1.5, (2)::numeric])))
);

ALTER TABLE ONLY public.accommodations FORCE ROW LEVEL SECURITY;


ALTER TABLE public.accommodations OWNER TO portal_owner;

--
-- Name: answers; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.answers (
    id uuid NOT NULL,
    session_id uuid NOT NULL,
    user_id uuid,
    question_id uuid NOT NULL,
    question_version integer NOT NULL,
    response jsonb NOT NULL,
    correct boolean NOT NULL,
    score real NOT NULL,
    rating smallint,
    time_ms integer NOT NULL,
    answered_at timestamp with time zone NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL,
    difficulty smallint,
    CONSTRAINT answers_rating_check CHECK (((rating >= 1) AND (rating <= 4))),
    CONSTRAINT answers_response_shape CHECK (public.response_shape_ok(response)),
    CONSTRAINT answers_score_check CHECK (((score >= (0)::double precision) AND (score <= (1)::double precision))),
    CONSTRAINT answers_time_ms_check CHECK (((time_ms >= 0) AND (time_ms <= 86400000)))
);

ALTER TABLE ONLY public.answers FORCE ROW LEVEL SECURITY;


ALTER TABLE public.answers OWNER TO portal_owner;

--
-- Name: app_secrets; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.app_secrets (
    name text NOT NULL,
    value bytea NOT NULL,
    CONSTRAINT app_secrets_value_check CHECK ((length(value) = 32))
);

ALTER TABLE ONLY public.app_secrets FORCE ROW LEVEL SECURITY;


ALTER TABLE public.app_secrets OWNER TO portal_owner;

--
-- Name: audit_log; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.audit_log (
    id bigint NOT NULL,
    at timestamp with time zone DEFAULT now() NOT NULL,
    actor_id uuid,
    actor_name text NOT NULL,
    action text NOT NULL,
    target text DEFAULT ''::text NOT NULL,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT audit_log_action_check CHECK ((action ~ '^[a-z][a-z.-]{1,60}$'::text)),
    CONSTRAINT audit_log_details_check CHECK ((jsonb_typeof(details) = 'object'::text)),
    CONSTRAINT audit_log_target_check CHECK ((length(target) <= 300))
);

ALTER TABLE ONLY public.audit_log FORCE ROW LEVEL SECURITY;


ALTER TABLE public.audit_log OWNER TO portal_owner;

--
-- Name: audit_log_id_seq; Type: SEQUENCE; Schema: public; Owner: portal_owner
--

ALTER TABLE public.audit_log ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.audit_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: auth_sessions; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.auth_sessions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    token_hash bytea NOT NULL,
    csrf_token text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    last_seen_at timestamp with time zone NOT NULL,
    user_agent text DEFAULT ''::text NOT NULL,
    CONSTRAINT auth_sessions_token_hash_check CHECK ((length(token_hash) = 32))
);

ALTER TABLE ONLY public.auth_sessions FORCE ROW LEVEL SECURITY;


ALTER TABLE public.auth_sessions OWNER TO portal_owner;

--
-- Name: calendar_feeds; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.calendar_feeds (
    user_id uuid NOT NULL,
    token_hash bytea NOT NULL,
    created_at timestamp with time zone NOT NULL,
    body text,
    made_for text,
    changed_at timestamp with time zone,
    CONSTRAINT calendar_feeds_token_hash_check CHECK ((length(token_hash) = 32))
);

ALTER TABLE ONLY public.calendar_feeds FORCE ROW LEVEL SECURITY;


ALTER TABLE public.calendar_feeds OWNER TO portal_owner;

--
-- Name: domains; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.domains (
    id bigint NOT NULL,
    exam_id bigint NOT NULL,
    slug text NOT NULL,
    title text NOT NULL,
    weight integer NOT NULL,
    CONSTRAINT domains_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9-]{0,79}$'::text)),
    CONSTRAINT domains_title_check CHECK (((length(title) >= 1) AND (length(title) <= 300))),
    CONSTRAINT domains_weight_check CHECK (((weight >= 1) AND (weight <= 100)))
);


ALTER TABLE public.domains OWNER TO portal_owner;

--
-- Name: questions; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.questions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    domain_id bigint NOT NULL,
    type text NOT NULL,
    stem text NOT NULL,
    code text,
    code_language text,
    options jsonb NOT NULL,
    correct jsonb NOT NULL,
    explanation text DEFAULT ''::text NOT NULL,
    difficulty integer NOT NULL,
    status text DEFAULT 'draft'::text NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    source_key text,
    exam_only boolean DEFAULT false NOT NULL,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    exam_id bigint NOT NULL,
    rich jsonb,
    CONSTRAINT questions_code_language_check CHECK ((code_language ~ '^[a-z0-9+#-]{1,20}$'::text)),
    CONSTRAINT questions_difficulty_check CHECK (((difficulty >= 1) AND (difficulty <= 5))),
    CONSTRAINT questions_gaps_marked CHECK (((type <> 'cloze'::text) OR (public.cloze_text_problem(stem, details) IS NULL))),
    CONSTRAINT questions_rich_valid CHECK (((rich IS NULL) OR (public.question_texts_problem(rich, options) IS NULL))),
    CONSTRAINT questions_shape_valid CHECK ((public.question_shape_problem(type, options, correct, details) IS NULL)),
    CONSTRAINT questions_status_check CHECK ((status = ANY (ARRAY['draft'::text, 'published'::text, 'retired'::text]))),
    CONSTRAINT questions_stem_check CHECK (((length(btrim(stem)) >= 1) AND (length(btrim(stem)) <= 20000)))
);


ALTER TABLE public.questions OWNER TO portal_owner;

--
-- Name: review_cards; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.review_cards (
    user_id uuid NOT NULL,
    question_id uuid NOT NULL,
    state text NOT NULL,
    step integer,
    stability double precision NOT NULL,
    difficulty double precision NOT NULL,
    due timestamp with time zone NOT NULL,
    last_review timestamp with time zone NOT NULL,
    first_review timestamp with time zone NOT NULL,
    reviews integer NOT NULL,
    lapses integer DEFAULT 0 NOT NULL,
    CONSTRAINT review_cards_difficulty_check CHECK (((difficulty >= (1)::double precision) AND (difficulty <= (10)::double precision))),
    CONSTRAINT review_cards_lapses_check CHECK ((lapses >= 0)),
    CONSTRAINT review_cards_reviews_check CHECK ((reviews >= 1)),
    CONSTRAINT review_cards_stability_check CHECK ((stability > (0)::double precision)),
    CONSTRAINT review_cards_state_check CHECK ((state = ANY (ARRAY['learning'::text, 'review'::text, 'relearning'::text]))),
    CONSTRAINT review_cards_step_check CHECK ((step >= 0))
);

ALTER TABLE ONLY public.review_cards FORCE ROW LEVEL SECURITY;


ALTER TABLE public.review_cards OWNER TO portal_owner;

--
-- Name: cards_by_domain; Type: VIEW; Schema: public; Owner: portal_owner
--

CREATE VIEW public.cards_by_domain WITH (security_invoker='true') AS
 SELECT c.user_id,
    d.exam_id,
    d.id AS domain_id,
    c.question_id,
    c.state,
    c.stability,
    c.last_review,
    c.due,
    c.first_review
   FROM ((public.review_cards c
     JOIN public.questions q ON ((q.id = c.question_id)))
     JOIN public.domains d ON ((d.id = q.domain_id)));


ALTER TABLE public.cards_by_domain OWNER TO portal_owner;

--
-- Name: class_account_batches; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.class_account_batches (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    class_id uuid NOT NULL,
    teacher_id uuid NOT NULL,
    made_at timestamp with time zone NOT NULL,
    cards jsonb NOT NULL,
    codes_shown boolean DEFAULT true NOT NULL,
    CONSTRAINT class_account_batches_cards_check CHECK ((jsonb_typeof(cards) = 'array'::text))
);

ALTER TABLE ONLY public.class_account_batches FORCE ROW LEVEL SECURITY;


ALTER TABLE public.class_account_batches OWNER TO portal_owner;

--
-- Name: class_members; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.class_members (
    class_id uuid NOT NULL,
    user_id uuid NOT NULL,
    joined_at timestamp with time zone NOT NULL,
    left_at timestamp with time zone
);

ALTER TABLE ONLY public.class_members FORCE ROW LEVEL SECURITY;


ALTER TABLE public.class_members OWNER TO portal_owner;

--
-- Name: classes; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.classes (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    school_id uuid,
    teacher_id uuid NOT NULL,
    name text NOT NULL,
    join_code text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    public_boards boolean DEFAULT false NOT NULL,
    CONSTRAINT classes_join_code_check CHECK ((join_code ~ '^[A-HJ-NP-Z2-9]{8}$'::text)),
    CONSTRAINT classes_name_check CHECK (((length(btrim(name)) >= 1) AND (length(btrim(name)) <= 120)))
);

ALTER TABLE ONLY public.classes FORCE ROW LEVEL SECURITY;


ALTER TABLE public.classes OWNER TO portal_owner;

--
-- Name: content_images; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.content_images (
    digest text NOT NULL,
    media_type text NOT NULL,
    bytes bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT content_images_bytes_check CHECK (((octet_length(bytes) >= 1) AND (octet_length(bytes) <=
CASE
    WHEN (media_type ~~ 'image/%'::text) THEN 2097152
    ELSE 16777216
END))),
    CONSTRAINT content_images_digest_check CHECK ((digest ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT content_images_media_type_check CHECK ((media_type = ANY (ARRAY['image/png'::text, 'image/jpeg'::text, 'image/gif'::text, 'image/webp'::text, 'image/svg+xml'::text, 'audio/mpeg'::text, 'audio/ogg'::text, 'audio/mp4'::text, 'video/mp4'::text, 'video/webm'::text]))),
    CONSTRAINT content_images_named_by_digest CHECK ((digest = encode(sha256(bytes), 'hex'::text)))
);


ALTER TABLE public.content_images OWNER TO portal_owner;

--
-- Name: study_sessions; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.study_sessions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid,
    guest_key bytea,
    exam_id bigint NOT NULL,
    mode text NOT NULL,
    config jsonb DEFAULT '{}'::jsonb NOT NULL,
    question_ids uuid[] NOT NULL,
    flagged uuid[] DEFAULT '{}'::uuid[] NOT NULL,
    started_at timestamp with time zone NOT NULL,
    deadline_at timestamp with time zone,
    finished_at timestamp with time zone,
    score_correct integer,
    score_percent numeric(5,2),
    passed boolean,
    share_link_id uuid,
    anonymous_key uuid,
    set_aside boolean DEFAULT false NOT NULL,
    struck jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT study_sessions_check1 CHECK (((deadline_at IS NULL) OR (deadline_at > started_at))),
    CONSTRAINT study_sessions_check2 CHECK (((finished_at IS NULL) OR (finished_at >= started_at))),
    CONSTRAINT study_sessions_check3 CHECK (((finished_at IS NULL) = (score_percent IS NULL))),
    CONSTRAINT study_sessions_config_check CHECK ((jsonb_typeof(config) = 'object'::text)),
    CONSTRAINT study_sessions_guest_key_check CHECK ((length(guest_key) = 32)),
    CONSTRAINT study_sessions_mode_check CHECK ((mode = ANY (ARRAY['practice'::text, 'mock'::text, 'review'::text, 'weak-spots'::text]))),
    CONSTRAINT study_sessions_one_owner CHECK ((num_nonnulls(user_id, guest_key, anonymous_key) = 1)),
    CONSTRAINT study_sessions_question_ids_check CHECK (((cardinality(question_ids) >= 1) AND (cardinality(question_ids) <= 500))),
    CONSTRAINT study_sessions_score_correct_check CHECK ((score_correct >= 0)),
    CONSTRAINT study_sessions_score_percent_check CHECK (((score_percent >= (0)::numeric) AND (score_percent <= (100)::numeric))),
    CONSTRAINT study_sessions_struck_check CHECK ((jsonb_typeof(struck) = 'object'::text))
);

ALTER TABLE ONLY public.study_sessions FORCE ROW LEVEL SECURITY;


ALTER TABLE public.study_sessions OWNER TO portal_owner;

--
-- Name: counted_answers; Type: VIEW; Schema: public; Owner: portal_owner
--

CREATE VIEW public.counted_answers WITH (security_invoker='true') AS
 SELECT DISTINCT ON (a.session_id, a.question_id) a.id,
    a.session_id,
    a.user_id,
    a.question_id,
    a.question_version,
    a.response,
    a.correct,
    a.score,
    a.rating,
    a.time_ms,
    a.answered_at,
    a.received_at
   FROM (public.answers a
     JOIN public.study_sessions s ON ((s.id = a.session_id)))
  ORDER BY a.session_id, a.question_id,
        CASE
            WHEN (s.mode = 'mock'::text) THEN a.received_at
            ELSE NULL::timestamp with time zone
        END DESC,
        CASE
            WHEN (s.mode = 'mock'::text) THEN a.answered_at
            ELSE NULL::timestamp with time zone
        END DESC,
        CASE
            WHEN (s.mode <> 'mock'::text) THEN a.received_at
            ELSE NULL::timestamp with time zone
        END,
        CASE
            WHEN (s.mode <> 'mock'::text) THEN a.answered_at
            ELSE NULL::timestamp with time zone
        END, a.id;


ALTER TABLE public.counted_answers OWNER TO portal_owner;

--
-- Name: data_exports; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.data_exports (
    user_id uuid NOT NULL,
    requested_at timestamp with time zone NOT NULL,
    ready_at timestamp with time zone,
    archive bytea,
    filename text,
    downloaded_at timestamp with time zone,
    CONSTRAINT data_exports_check CHECK (((archive IS NULL) OR ((ready_at IS NOT NULL) AND (filename IS NOT NULL)))),
    CONSTRAINT data_exports_filename_check CHECK ((filename ~ '^[a-z0-9.-]{1,80}$'::text))
);

ALTER TABLE ONLY public.data_exports FORCE ROW LEVEL SECURITY;


ALTER TABLE public.data_exports OWNER TO portal_owner;

--
-- Name: domain_accuracy_weekly; Type: VIEW; Schema: public; Owner: portal_owner
--

CREATE VIEW public.domain_accuracy_weekly AS
SELECT
    NULL::uuid AS user_id,
    NULL::bigint AS exam_id,
    NULL::bigint AS domain_id,
    NULL::text AS domain_slug,
    NULL::text AS domain_title,
    NULL::date AS week,
    NULL::bigint AS answered,
    NULL::bigint AS correct;


ALTER TABLE public.domain_accuracy_weekly OWNER TO portal_owner;

--
-- Name: domains_id_seq; Type: SEQUENCE; Schema: public; Owner: portal_owner
--

ALTER TABLE public.domains ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.domains_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: email_verifications; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.email_verifications (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    email text NOT NULL,
    token_hash bytea NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT email_verifications_check CHECK ((expires_at > created_at)),
    CONSTRAINT email_verifications_email_check CHECK (((length(email) >= 3) AND (length(email) <= 254))),
    CONSTRAINT email_verifications_token_hash_check CHECK ((length(token_hash) = 32))
);

ALTER TABLE ONLY public.email_verifications FORCE ROW LEVEL SECURITY;


ALTER TABLE public.email_verifications OWNER TO portal_owner;

--
-- Name: event_results; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.event_results (
    event_id uuid NOT NULL,
    participant_id uuid NOT NULL,
    nickname text NOT NULL,
    rank integer NOT NULL,
    points integer NOT NULL,
    correct integer NOT NULL,
    CONSTRAINT event_results_correct_check CHECK ((correct >= 0)),
    CONSTRAINT event_results_points_check CHECK ((points >= 0)),
    CONSTRAINT event_results_rank_check CHECK ((rank >= 1))
);

ALTER TABLE ONLY public.event_results FORCE ROW LEVEL SECURITY;


ALTER TABLE public.event_results OWNER TO portal_owner;

--
-- Name: exam_dates; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.exam_dates (
    user_id uuid NOT NULL,
    exam_id bigint NOT NULL,
    sits_on date NOT NULL,
    set_at timestamp with time zone NOT NULL
);

ALTER TABLE ONLY public.exam_dates FORCE ROW LEVEL SECURITY;


ALTER TABLE public.exam_dates OWNER TO portal_owner;

--
-- Name: exams; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.exams (
    id bigint NOT NULL,
    region_id bigint NOT NULL,
    slug text NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    language text NOT NULL,
    pass_mark integer NOT NULL,
    time_limit_s integer NOT NULL,
    question_count integer NOT NULL,
    content_updated_at timestamp with time zone DEFAULT now() NOT NULL,
    published boolean DEFAULT true NOT NULL,
    scaled_min integer,
    scaled_pass integer,
    scaled_max integer,
    CONSTRAINT exams_language_check CHECK ((language ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$'::text)),
    CONSTRAINT exams_pass_mark_check CHECK (((pass_mark >= 1) AND (pass_mark <= 100))),
    CONSTRAINT exams_question_count_check CHECK (((question_count >= 1) AND (question_count <= 500))),
    CONSTRAINT exams_scaled_score CHECK ((((scaled_min IS NULL) AND (scaled_pass IS NULL) AND (scaled_max IS NULL)) OR ((scaled_min >= 0) AND (scaled_min < scaled_pass) AND (scaled_pass < scaled_max) AND (scaled_max <= 100000)))),
    CONSTRAINT exams_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9-]{0,79}$'::text)),
    CONSTRAINT exams_time_limit_s_check CHECK (((time_limit_s >= 60) AND (time_limit_s <= 86400))),
    CONSTRAINT exams_title_check CHECK (((length(title) >= 1) AND (length(title) <= 300)))
);


ALTER TABLE public.exams OWNER TO portal_owner;

--
-- Name: exams_id_seq; Type: SEQUENCE; Schema: public; Owner: portal_owner
--

ALTER TABLE public.exams ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.exams_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: external_identities; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.external_identities (
    kind text NOT NULL,
    issuer text NOT NULL,
    subject text NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_used_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT external_identities_issuer_check CHECK (((length(issuer) >= 1) AND (length(issuer) <= 300))),
    CONSTRAINT external_identities_kind_check CHECK ((kind = ANY (ARRAY['lti'::text, 'sso'::text]))),
    CONSTRAINT external_identities_subject_check CHECK (((length(subject) >= 1) AND (length(subject) <= 255)))
);

ALTER TABLE ONLY public.external_identities FORCE ROW LEVEL SECURITY;


ALTER TABLE public.external_identities OWNER TO portal_owner;

--
-- Name: form_sends; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.form_sends (
    token_hash bytea NOT NULL,
    user_id uuid,
    guest_hash bytea,
    location text,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT form_sends_check CHECK (((user_id IS NULL) <> (guest_hash IS NULL))),
    CONSTRAINT form_sends_guest_hash_check CHECK (((guest_hash IS NULL) OR (length(guest_hash) = 32))),
    CONSTRAINT form_sends_location_check CHECK (((location IS NULL) OR (((length(location) >= 1) AND (length(location) <= 500)) AND (location ~ '^/[^/\\]'::text)))),
    CONSTRAINT form_sends_token_hash_check CHECK ((length(token_hash) = 32))
);

ALTER TABLE ONLY public.form_sends FORCE ROW LEVEL SECURITY;


ALTER TABLE public.form_sends OWNER TO portal_owner;

--
-- Name: fsrs_weights; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.fsrs_weights (
    user_id uuid NOT NULL,
    weights double precision[],
    reviews integer NOT NULL,
    log_loss_before double precision,
    log_loss_after double precision,
    history_reviews integer NOT NULL,
    fitted_at timestamp with time zone,
    checked_at timestamp with time zone NOT NULL,
    CONSTRAINT fsrs_weights_check CHECK ((((weights IS NULL) = (fitted_at IS NULL)) AND ((weights IS NULL) = (log_loss_after IS NULL)) AND ((weights IS NULL) = (log_loss_before IS NULL)))),
    CONSTRAINT fsrs_weights_history_reviews_check CHECK ((history_reviews >= 0)),
    CONSTRAINT fsrs_weights_log_loss_after_check CHECK ((log_loss_after >= (0)::double precision)),
    CONSTRAINT fsrs_weights_log_loss_before_check CHECK ((log_loss_before >= (0)::double precision)),
    CONSTRAINT fsrs_weights_reviews_check CHECK ((reviews >= 0)),
    CONSTRAINT fsrs_weights_weights_check CHECK (((weights IS NULL) OR public.fsrs_weights_within_bounds(weights)))
);

ALTER TABLE ONLY public.fsrs_weights FORCE ROW LEVEL SECURITY;


ALTER TABLE public.fsrs_weights OWNER TO portal_owner;

--
-- Name: import_checks; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.import_checks (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    admin_id uuid NOT NULL,
    created_at timestamp with time zone NOT NULL,
    document bytea NOT NULL,
    into_exam text DEFAULT ''::text NOT NULL,
    domain text DEFAULT ''::text NOT NULL,
    skip_unsupported boolean DEFAULT false NOT NULL,
    CONSTRAINT import_checks_document_check CHECK (((length(document) >= 1) AND (length(document) <= 23068672))),
    CONSTRAINT import_checks_domain_check CHECK ((length(domain) <= 80)),
    CONSTRAINT import_checks_into_exam_check CHECK ((length(into_exam) <= 200))
);

ALTER TABLE ONLY public.import_checks FORCE ROW LEVEL SECURITY;


ALTER TABLE public.import_checks OWNER TO portal_owner;

--
-- Name: item_responses; Type: VIEW; Schema: public; Owner: portal_owner
--

CREATE VIEW public.item_responses WITH (security_invoker='true') AS
 SELECT i.session_id,
    i.exam_id,
    i.question_id,
    i.correct,
    i.response,
    i.time_ms,
    (count(*) FILTER (WHERE i.correct) OVER (PARTITION BY i.session_id) - (i.correct)::integer) AS rest
   FROM public.first_mock_items(NULL::bigint) i(session_id, exam_id, question_id, correct, response, time_ms);


ALTER TABLE public.item_responses OWNER TO portal_owner;

--
-- Name: item_common_answers; Type: VIEW; Schema: public; Owner: portal_owner
--

CREATE VIEW public.item_common_answers WITH (security_invoker='true') AS
 SELECT r.question_id,
    public.fill_in_normalized((r.response ->> 'text'::text)) AS answer,
    count(*) AS times,
    ((count(*))::double precision / (( SELECT count(*) AS count
           FROM public.item_responses t
          WHERE (t.question_id = r.question_id)))::double precision) AS share
   FROM public.item_responses r
  WHERE ((NOT r.correct) AND (jsonb_typeof((r.response -> 'text'::text)) = 'string'::text))
  GROUP BY r.question_id, (public.fill_in_normalized((r.response ->> 'text'::text)));


ALTER TABLE public.item_common_answers OWNER TO portal_owner;

--
-- Name: item_gap_statistics; Type: VIEW; Schema: public; Owner: portal_owner
--

CREATE VIEW public.item_gap_statistics WITH (security_invoker='true') AS
 WITH given AS (
         SELECT r.question_id,
            (g.n)::integer AS gap,
            public.fill_in_normalized(g.v) AS answer,
            ((public.fill_in_normalized(g.v) <> ''::text) AND (public.typed_answer_outcome(((q.details -> 'gaps'::text) -> ((g.n)::integer - 1)), public.fill_in_normalized(g.v))).correct) AS right_answer
           FROM ((public.item_responses r
             JOIN public.questions q ON (((q.id = r.question_id) AND (q.type = 'cloze'::text))))
             CROSS JOIN LATERAL jsonb_array_elements_text((r.response -> 'gaps'::text)) WITH ORDINALITY g(v, n))
          WHERE (jsonb_typeof((r.response -> 'gaps'::text)) = 'array'::text)
        ), per_gap AS (
         SELECT given.question_id,
            given.gap,
            count(*) AS attempts,
            (avg(
                CASE
                    WHEN given.right_answer THEN 1
                    ELSE 0
                END))::double precision AS facility
           FROM given
          GROUP BY given.question_id, given.gap
        )
 SELECT p.question_id,
    p.gap,
    p.attempts,
    p.facility,
    COALESCE(( SELECT jsonb_agg(jsonb_build_array(w.answer, ((w.times)::double precision / (p.attempts)::double precision)) ORDER BY w.times DESC, w.answer) AS jsonb_agg
           FROM ( SELECT x.answer,
                    count(*) AS times
                   FROM given x
                  WHERE ((x.question_id = p.question_id) AND (x.gap = p.gap) AND (NOT x.right_answer) AND (x.answer <> ''::text))
                  GROUP BY x.answer
                  ORDER BY (count(*)) DESC, x.answer
                 LIMIT 3) w), '[]'::jsonb) AS common_wrong
   FROM per_gap p;


ALTER TABLE public.item_gap_statistics OWNER TO portal_owner;

--
-- Name: item_option_shares; Type: VIEW; Schema: public; Owner: portal_owner
--

CREATE VIEW public.item_option_shares WITH (security_invoker='true') AS
 WITH picks AS (
         SELECT r.question_id,
            (pick.value)::integer AS option_index
           FROM ((public.item_responses r
             JOIN public.questions q ON (((q.id = r.question_id) AND (q.type = ANY (ARRAY['single-choice'::text, 'multi-choice'::text, 'code-snippet'::text, 'hotspot'::text])))))
             CROSS JOIN LATERAL jsonb_array_elements_text(
                CASE
                    WHEN (jsonb_typeof(r.response) = 'array'::text) THEN r.response
                    ELSE '[]'::jsonb
                END) pick(value))
        UNION ALL
         SELECT r.question_id,
            ( SELECT ((o.n - 1))::integer AS int4
                   FROM jsonb_array_elements(q.options) WITH ORDINALITY o(value, n)
                  WHERE public.hotspot_contains((o.value -> 'region'::text), (((r.response -> 'point'::text) ->> 0))::double precision, (((r.response -> 'point'::text) ->> 1))::double precision)
                  ORDER BY o.n
                 LIMIT 1) AS int4
           FROM (public.item_responses r
             JOIN public.questions q ON (((q.id = r.question_id) AND (q.type = 'hotspot'::text))))
          WHERE (jsonb_typeof((r.response -> 'point'::text)) = 'array'::text)
        )
 SELECT p.question_id,
    p.option_index,
    count(*) AS picks,
    ((count(*))::double precision / (( SELECT count(*) AS count
           FROM public.item_responses t
          WHERE (t.question_id = p.question_id)))::double precision) AS share
   FROM picks p
  WHERE (p.option_index IS NOT NULL)
  GROUP BY p.question_id, p.option_index;


ALTER TABLE public.item_option_shares OWNER TO portal_owner;

--
-- Name: item_statistics; Type: VIEW; Schema: public; Owner: portal_owner
--

CREATE VIEW public.item_statistics WITH (security_invoker='true') AS
 WITH ranked AS (
         SELECT r.session_id,
            r.exam_id,
            r.question_id,
            r.correct,
            r.response,
            r.time_ms,
            r.rest,
            count(*) FILTER (WHERE r.correct) OVER (PARTITION BY r.question_id) AS rights,
            row_number() OVER (PARTITION BY r.question_id ORDER BY r.rest DESC, r.session_id) AS "position"
           FROM public.item_responses r
        )
 SELECT ranked.question_id,
    count(*) AS attempts,
    (avg((ranked.correct)::integer))::double precision AS facility,
    corr(((ranked.correct)::integer)::double precision, (ranked.rest)::double precision) AS discrimination,
        CASE
            WHEN (covar_pop((((ranked."position" <= ranked.rights))::integer)::double precision, (ranked.rest)::double precision) > (0)::double precision) THEN (covar_pop(((ranked.correct)::integer)::double precision, (ranked.rest)::double precision) / covar_pop((((ranked."position" <= ranked.rights))::integer)::double precision, (ranked.rest)::double precision))
            ELSE NULL::double precision
        END AS efficiency,
    (avg(ranked.time_ms))::double precision AS average_ms
   FROM ranked
  GROUP BY ranked.question_id;


ALTER TABLE public.item_statistics OWNER TO portal_owner;

--
-- Name: key_set_keys; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.key_set_keys (
    jwks_uri text NOT NULL,
    kid text NOT NULL,
    modulus numeric NOT NULL,
    exponent numeric NOT NULL,
    octets integer NOT NULL,
    CONSTRAINT key_set_keys_exponent_check CHECK ((exponent >= (3)::numeric)),
    CONSTRAINT key_set_keys_kid_check CHECK (((length(kid) >= 1) AND (length(kid) <= 200))),
    CONSTRAINT key_set_keys_octets_check CHECK (((octets >= 256) AND (octets <= 1024)))
);

ALTER TABLE ONLY public.key_set_keys FORCE ROW LEVEL SECURITY;


ALTER TABLE public.key_set_keys OWNER TO portal_owner;

--
-- Name: key_sets; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.key_sets (
    jwks_uri text NOT NULL,
    fetched_at timestamp with time zone,
    failed_at timestamp with time zone,
    problem text,
    wanted_at timestamp with time zone,
    leased_until timestamp with time zone,
    CONSTRAINT key_sets_jwks_uri_check CHECK (((jwks_uri ~ '^https?://[^\s]+$'::text) AND (length(jwks_uri) <= 2000))),
    CONSTRAINT key_sets_problem_check CHECK ((length(problem) <= 500))
);

ALTER TABLE ONLY public.key_sets FORCE ROW LEVEL SECURITY;


ALTER TABLE public.key_sets OWNER TO portal_owner;

--
-- Name: users; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.users (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    username text NOT NULL,
    display_name text NOT NULL,
    password_hash text,
    role text DEFAULT 'student'::text NOT NULL,
    locale text,
    time_zone text DEFAULT 'UTC'::text NOT NULL,
    show_on_leaderboard boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    disabled_at timestamp with time zone,
    data_version bigint DEFAULT 0 NOT NULL,
    desired_retention numeric(3,2) DEFAULT 0.90 NOT NULL,
    made_by uuid,
    balance_reviews boolean DEFAULT true NOT NULL,
    easy_days text DEFAULT 'nnnnnnn'::text NOT NULL,
    study_time time without time zone DEFAULT '18:00:00'::time without time zone NOT NULL,
    digest text DEFAULT 'off'::text NOT NULL,
    digest_sent_on date,
    push_sent_on date,
    color_scheme text DEFAULT 'device'::text NOT NULL,
    time_zone_confirmed boolean DEFAULT false NOT NULL,
    hides_readings boolean DEFAULT false NOT NULL,
    reads_aloud boolean DEFAULT false NOT NULL,
    CONSTRAINT users_color_scheme_check CHECK ((color_scheme = ANY (ARRAY['device'::text, 'light'::text, 'dark'::text]))),
    CONSTRAINT users_desired_retention_check CHECK (((desired_retention >= 0.70) AND (desired_retention <= 0.97))),
    CONSTRAINT users_digest_check CHECK ((digest = ANY (ARRAY['off'::text, 'daily'::text, 'weekly'::text]))),
    CONSTRAINT users_display_name_check CHECK (((length(btrim(display_name)) >= 1) AND (length(btrim(display_name)) <= 80))),
    CONSTRAINT users_easy_days_check CHECK (((easy_days ~ '^[nrx]{7}$'::text) AND (easy_days <> 'xxxxxxx'::text))),
    CONSTRAINT users_locale_check CHECK ((locale ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$'::text)),
    CONSTRAINT users_locale_known CHECK ((locale = ANY (ARRAY['en'::text, 'de'::text, 'es'::text, 'it'::text, 'ja'::text, 'th'::text, 'zh'::text]))),
    CONSTRAINT users_password_hash_check CHECK ((password_hash ~~ '$argon2id$%'::text)),
    CONSTRAINT users_role_check CHECK ((role = ANY (ARRAY['student'::text, 'teacher'::text, 'admin'::text]))),
    CONSTRAINT users_study_time_check CHECK (((study_time)::interval = date_trunc('minute'::text, (study_time)::interval))),
    CONSTRAINT users_time_zone_check CHECK (((length(time_zone) >= 1) AND (length(time_zone) <= 64))),
    CONSTRAINT users_username_check CHECK ((username ~ '^[^[:space:]/@:<>"'']{3,40}$'::text))
);

ALTER TABLE ONLY public.users FORCE ROW LEVEL SECURITY;


ALTER TABLE public.users OWNER TO portal_owner;

--
-- Name: leaderboard_entries; Type: MATERIALIZED VIEW; Schema: public; Owner: portal_leaderboard
--

CREATE MATERIALIZED VIEW public.leaderboard_entries AS
 WITH final_answers AS (
         SELECT DISTINCT ON (a_1.session_id, a_1.question_id) a_1.session_id,
            a_1.user_id,
            a_1.question_id,
            a_1.correct,
            a_1.received_at
           FROM (public.answers a_1
             JOIN public.study_sessions s ON ((s.id = a_1.session_id)))
          ORDER BY a_1.session_id, a_1.question_id,
                CASE
                    WHEN (s.mode = 'mock'::text) THEN a_1.received_at
                    ELSE NULL::timestamp with time zone
                END DESC,
                CASE
                    WHEN (s.mode = 'mock'::text) THEN a_1.answered_at
                    ELSE NULL::timestamp with time zone
                END DESC,
                CASE
                    WHEN (s.mode <> 'mock'::text) THEN a_1.received_at
                    ELSE NULL::timestamp with time zone
                END,
                CASE
                    WHEN (s.mode <> 'mock'::text) THEN a_1.answered_at
                    ELSE NULL::timestamp with time zone
                END, a_1.id
        ), facts AS (
         SELECT f.session_id,
            f.user_id,
            f.question_id,
            f.correct,
            f.received_at,
            d.exam_id,
            q.difficulty,
            ((f.received_at AT TIME ZONE 'UTC'::text))::date AS day
           FROM ((final_answers f
             JOIN public.questions q ON ((q.id = f.question_id)))
             JOIN public.domains d ON ((d.id = q.domain_id)))
        ), periods AS (
         SELECT 'all'::text AS period,
            facts.session_id,
            facts.user_id,
            facts.question_id,
            facts.correct,
            facts.received_at,
            facts.exam_id,
            facts.difficulty,
            facts.day
           FROM facts
        UNION ALL
         SELECT 'week'::text AS text,
            facts.session_id,
            facts.user_id,
            facts.question_id,
            facts.correct,
            facts.received_at,
            facts.exam_id,
            facts.difficulty,
            facts.day
           FROM facts
          WHERE (facts.received_at >= (date_trunc('week'::text, (now() AT TIME ZONE 'UTC'::text)) AT TIME ZONE 'UTC'::text))
        ), points AS (
         SELECT scored.period,
            scored.exam_id,
            scored.user_id,
            sum((10 * scored.difficulty)) AS points
           FROM ( SELECT DISTINCT periods.period,
                    periods.exam_id,
                    periods.user_id,
                    periods.question_id,
                    periods.day,
                    periods.difficulty
                   FROM periods
                  WHERE periods.correct) scored
          GROUP BY scored.period, scored.exam_id, scored.user_id
        ), activity AS (
         SELECT periods.period,
            periods.exam_id,
            periods.user_id,
            count(DISTINCT periods.session_id) AS sessions,
            count(*) AS answered,
            count(*) FILTER (WHERE periods.correct) AS correct
           FROM periods
          GROUP BY periods.period, periods.exam_id, periods.user_id
        )
 SELECT a.period,
    a.exam_id,
    a.user_id,
    u.display_name,
    COALESCE(p.points, (0)::bigint) AS points,
    a.sessions,
    a.answered,
    a.correct,
    rank() OVER (PARTITION BY a.period, a.exam_id ORDER BY COALESCE(p.points, (0)::bigint) DESC) AS rank,
    row_number() OVER (PARTITION BY a.period, a.exam_id ORDER BY COALESCE(p.points, (0)::bigint) DESC, a.correct DESC, u.display_name, a.user_id) AS place
   FROM ((activity a
     JOIN public.users u ON ((u.id = a.user_id)))
     LEFT JOIN points p ON (((p.period = a.period) AND (p.exam_id = a.exam_id) AND (p.user_id = a.user_id))))
  WITH NO DATA;


ALTER TABLE public.leaderboard_entries OWNER TO portal_leaderboard;

--
-- Name: leaderboard_refreshes; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.leaderboard_refreshes (
    refreshed_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    duration_ms integer NOT NULL,
    entries bigint NOT NULL,
    instance text DEFAULT ''::text NOT NULL
);


ALTER TABLE public.leaderboard_refreshes OWNER TO portal_owner;

--
-- Name: live_answers; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.live_answers (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    event_id uuid NOT NULL,
    participant_id uuid NOT NULL,
    question_index integer NOT NULL,
    question_id uuid NOT NULL,
    question_version integer NOT NULL,
    response jsonb NOT NULL,
    correct boolean NOT NULL,
    time_ms integer NOT NULL,
    base_points integer NOT NULL,
    answered_at timestamp with time zone NOT NULL,
    CONSTRAINT live_answers_base_points_check CHECK ((base_points >= 0)),
    CONSTRAINT live_answers_question_index_check CHECK ((question_index >= 0)),
    CONSTRAINT live_answers_response_shape CHECK (public.response_shape_ok(response)),
    CONSTRAINT live_answers_time_ms_check CHECK ((time_ms >= 0))
);

ALTER TABLE ONLY public.live_answers FORCE ROW LEVEL SECURITY;


ALTER TABLE public.live_answers OWNER TO portal_owner;

--
-- Name: live_events; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.live_events (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    code text NOT NULL,
    exam_id bigint NOT NULL,
    host_id uuid,
    title text NOT NULL,
    question_ids uuid[] NOT NULL,
    seconds_per_question integer NOT NULL,
    pause_seconds integer DEFAULT 5 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    starts_at timestamp with time zone,
    ended_at timestamp with time zone,
    CONSTRAINT live_events_check CHECK (((ended_at IS NULL) OR (starts_at IS NOT NULL))),
    CONSTRAINT live_events_code_check CHECK ((code ~ '^[A-HJ-NP-Z2-9]{6}$'::text)),
    CONSTRAINT live_events_pause_seconds_check CHECK (((pause_seconds >= 1) AND (pause_seconds <= 60))),
    CONSTRAINT live_events_question_ids_check CHECK (((cardinality(question_ids) >= 1) AND (cardinality(question_ids) <= 50))),
    CONSTRAINT live_events_seconds_per_question_check CHECK (((seconds_per_question >= 5) AND (seconds_per_question <= 300))),
    CONSTRAINT live_events_title_check CHECK (((length(btrim(title)) >= 1) AND (length(btrim(title)) <= 120)))
);

ALTER TABLE ONLY public.live_events FORCE ROW LEVEL SECURITY;


ALTER TABLE public.live_events OWNER TO portal_owner;

--
-- Name: live_participants; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.live_participants (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    event_id uuid NOT NULL,
    user_id uuid,
    guest_key bytea,
    nickname text NOT NULL,
    joined_at timestamp with time zone NOT NULL,
    CONSTRAINT live_participants_check CHECK (((user_id IS NULL) <> (guest_key IS NULL))),
    CONSTRAINT live_participants_guest_key_check CHECK ((length(guest_key) = 32)),
    CONSTRAINT live_participants_nickname_check CHECK (((length(btrim(nickname)) >= 2) AND (length(btrim(nickname)) <= 24)))
);

ALTER TABLE ONLY public.live_participants FORCE ROW LEVEL SECURITY;


ALTER TABLE public.live_participants OWNER TO portal_owner;

--
-- Name: login_addresses; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.login_addresses (
    user_id uuid NOT NULL,
    address_hash bytea NOT NULL,
    last_success_at timestamp with time zone NOT NULL
);

ALTER TABLE ONLY public.login_addresses FORCE ROW LEVEL SECURITY;


ALTER TABLE public.login_addresses OWNER TO portal_owner;

--
-- Name: login_attempts; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.login_attempts (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    username text NOT NULL,
    account_key bytea NOT NULL,
    address_key bytea NOT NULL,
    expires_at timestamp with time zone NOT NULL
);

ALTER TABLE ONLY public.login_attempts FORCE ROW LEVEL SECURITY;


ALTER TABLE public.login_attempts OWNER TO portal_owner;

--
-- Name: login_throttle; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.login_throttle (
    key_hash bytea NOT NULL,
    failures integer DEFAULT 0 NOT NULL,
    last_failure_at timestamp with time zone,
    blocked_until timestamp with time zone
);

ALTER TABLE ONLY public.login_throttle FORCE ROW LEVEL SECURITY;


ALTER TABLE public.login_throttle OWNER TO portal_owner;

--
-- Name: lti_context_learners; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.lti_context_learners (
    platform_id bigint NOT NULL,
    context_id text NOT NULL,
    user_id uuid NOT NULL
);

ALTER TABLE ONLY public.lti_context_learners FORCE ROW LEVEL SECURITY;


ALTER TABLE public.lti_context_learners OWNER TO portal_owner;

--
-- Name: lti_contexts; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.lti_contexts (
    platform_id bigint NOT NULL,
    context_id text NOT NULL,
    class_id uuid,
    title text NOT NULL,
    memberships_url text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT lti_contexts_context_id_check CHECK (((length(context_id) >= 1) AND (length(context_id) <= 255)))
);

ALTER TABLE ONLY public.lti_contexts FORCE ROW LEVEL SECURITY;


ALTER TABLE public.lti_contexts OWNER TO portal_owner;

--
-- Name: lti_deep_links; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.lti_deep_links (
    token_hash bytea NOT NULL,
    user_id uuid NOT NULL,
    platform_id bigint NOT NULL,
    deployment_id text NOT NULL,
    return_url text NOT NULL,
    data jsonb,
    accepts_line_item boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT lti_deep_links_data_size CHECK ((length((data)::text) <= 4000)),
    CONSTRAINT lti_deep_links_return_url_check CHECK (((return_url ~ '^https?://[^\s]+$'::text) AND (length(return_url) <= 2000))),
    CONSTRAINT lti_deep_links_token_hash_check CHECK ((octet_length(token_hash) = 32))
);

ALTER TABLE ONLY public.lti_deep_links FORCE ROW LEVEL SECURITY;


ALTER TABLE public.lti_deep_links OWNER TO portal_owner;

--
-- Name: lti_deployments; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.lti_deployments (
    platform_id bigint NOT NULL,
    deployment_id text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT lti_deployments_deployment_id_check CHECK (((length(deployment_id) >= 1) AND (length(deployment_id) <= 200)))
);


ALTER TABLE public.lti_deployments OWNER TO portal_owner;

--
-- Name: lti_graded_sessions; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.lti_graded_sessions (
    session_id uuid NOT NULL,
    platform_id bigint NOT NULL,
    resource_link_id text NOT NULL,
    lineitem_url text NOT NULL,
    subject text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT lti_graded_sessions_lineitem_url_check CHECK (((lineitem_url ~ '^https?://[^\s]+$'::text) AND (length(lineitem_url) <= 2000))),
    CONSTRAINT lti_graded_sessions_resource_link_id_check CHECK (((length(resource_link_id) >= 1) AND (length(resource_link_id) <= 255))),
    CONSTRAINT lti_graded_sessions_subject_check CHECK (((length(subject) >= 1) AND (length(subject) <= 255)))
);

ALTER TABLE ONLY public.lti_graded_sessions FORCE ROW LEVEL SECURITY;


ALTER TABLE public.lti_graded_sessions OWNER TO portal_owner;

--
-- Name: lti_handoffs; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.lti_handoffs (
    token_hash bytea NOT NULL,
    session_hash bytea NOT NULL,
    browser_hash bytea NOT NULL,
    location text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT lti_handoffs_browser_hash_check CHECK ((octet_length(browser_hash) = 32)),
    CONSTRAINT lti_handoffs_location_check CHECK (((location ~ '^/'::text) AND (length(location) <= 2000))),
    CONSTRAINT lti_handoffs_session_hash_check CHECK ((octet_length(session_hash) = 32)),
    CONSTRAINT lti_handoffs_token_hash_check CHECK ((octet_length(token_hash) = 32))
);

ALTER TABLE ONLY public.lti_handoffs FORCE ROW LEVEL SECURITY;


ALTER TABLE public.lti_handoffs OWNER TO portal_owner;

--
-- Name: lti_platforms; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.lti_platforms (
    id bigint NOT NULL,
    issuer text NOT NULL,
    client_id text NOT NULL,
    auth_url text NOT NULL,
    token_url text NOT NULL,
    jwks_url text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT lti_platforms_auth_url_check CHECK ((auth_url ~ '^https?://[^\s]+$'::text)),
    CONSTRAINT lti_platforms_client_id_check CHECK (((length(client_id) >= 1) AND (length(client_id) <= 200))),
    CONSTRAINT lti_platforms_issuer_check CHECK (((issuer ~ '^https?://[^\s]+$'::text) AND (length(issuer) <= 300))),
    CONSTRAINT lti_platforms_jwks_url_check CHECK ((jwks_url ~ '^https?://[^\s]+$'::text)),
    CONSTRAINT lti_platforms_token_url_check CHECK ((token_url ~ '^https?://[^\s]+$'::text))
);


ALTER TABLE public.lti_platforms OWNER TO portal_owner;

--
-- Name: lti_platforms_id_seq; Type: SEQUENCE; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_platforms ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.lti_platforms_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: lti_score_outbox; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.lti_score_outbox (
    session_id uuid NOT NULL,
    platform_id bigint NOT NULL,
    lineitem_url text NOT NULL,
    subject text NOT NULL,
    score_given numeric(5,2) NOT NULL,
    score_maximum numeric(5,2) NOT NULL,
    finished_at timestamp with time zone NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone NOT NULL,
    sent_at timestamp with time zone,
    last_error text
);

ALTER TABLE ONLY public.lti_score_outbox FORCE ROW LEVEL SECURITY;


ALTER TABLE public.lti_score_outbox OWNER TO portal_owner;

--
-- Name: lti_states; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.lti_states (
    state_hash bytea NOT NULL,
    nonce text NOT NULL,
    platform_id bigint NOT NULL,
    target_link_uri text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    used_at timestamp with time zone,
    browser_hash bytea NOT NULL,
    signed_in_at timestamp with time zone,
    cookie_hash bytea,
    storage_target text,
    CONSTRAINT lti_states_browser_hash_check CHECK ((octet_length(browser_hash) = 32)),
    CONSTRAINT lti_states_cookie_hash_check CHECK ((octet_length(cookie_hash) = 32)),
    CONSTRAINT lti_states_nonce_check CHECK ((nonce ~ '^[A-Za-z0-9_-]{16,64}$'::text)),
    CONSTRAINT lti_states_state_hash_check CHECK ((octet_length(state_hash) = 32)),
    CONSTRAINT lti_states_storage_target_check CHECK (((length(storage_target) >= 1) AND (length(storage_target) <= 200))),
    CONSTRAINT lti_states_target_link_uri_check CHECK (((length(target_link_uri) >= 1) AND (length(target_link_uri) <= 2000)))
);

ALTER TABLE ONLY public.lti_states FORCE ROW LEVEL SECURITY;


ALTER TABLE public.lti_states OWNER TO portal_owner;

--
-- Name: lti_tool_keys; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.lti_tool_keys (
    kid text NOT NULL,
    private_pem text NOT NULL,
    modulus text NOT NULL,
    exponent text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    retired_at timestamp with time zone,
    CONSTRAINT lti_tool_keys_exponent_check CHECK ((exponent ~ '^[A-Za-z0-9_-]{1,12}$'::text)),
    CONSTRAINT lti_tool_keys_kid_check CHECK ((kid ~ '^[A-Za-z0-9_-]{8,64}$'::text)),
    CONSTRAINT lti_tool_keys_modulus_check CHECK (((modulus ~ '^[A-Za-z0-9_-]+$'::text) AND (length(modulus) >= 340))),
    CONSTRAINT lti_tool_keys_private_pem_check CHECK ((private_pem ~~ '-----BEGIN PRIVATE KEY-----%'::text))
);


ALTER TABLE public.lti_tool_keys OWNER TO portal_owner;

--
-- Name: mail_outbox; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.mail_outbox (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    purpose text NOT NULL,
    recipient text NOT NULL,
    recipient_name text DEFAULT ''::text NOT NULL,
    locale text NOT NULL,
    subject text NOT NULL,
    text_body text NOT NULL,
    html_body text NOT NULL,
    link_path text,
    secret text,
    created_at timestamp with time zone NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone NOT NULL,
    sent_at timestamp with time zone,
    given_up_at timestamp with time zone,
    last_error text,
    CONSTRAINT mail_outbox_html_body_check CHECK ((length(html_body) <= 60000)),
    CONSTRAINT mail_outbox_link_path_check CHECK ((link_path ~ '^/[a-z/-]{1,60}/$'::text)),
    CONSTRAINT mail_outbox_locale_check CHECK ((locale ~ '^[a-z]{2,3}$'::text)),
    CONSTRAINT mail_outbox_purpose_check CHECK ((purpose ~ '^[a-z-]{1,40}$'::text)),
    CONSTRAINT mail_outbox_recipient_check CHECK (((length(recipient) >= 3) AND (length(recipient) <= 254))),
    CONSTRAINT mail_outbox_recipient_name_check CHECK ((length(recipient_name) <= 200)),
    CONSTRAINT mail_outbox_subject_check CHECK (((length(subject) >= 1) AND (length(subject) <= 300))),
    CONSTRAINT mail_outbox_text_body_check CHECK ((length(text_body) <= 20000))
);

ALTER TABLE ONLY public.mail_outbox FORCE ROW LEVEL SECURITY;


ALTER TABLE public.mail_outbox OWNER TO portal_owner;

--
-- Name: mail_unsubscribes; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.mail_unsubscribes (
    token_hash bytea NOT NULL,
    user_id uuid NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT mail_unsubscribes_token_hash_check CHECK ((length(token_hash) = 32))
);

ALTER TABLE ONLY public.mail_unsubscribes FORCE ROW LEVEL SECURITY;


ALTER TABLE public.mail_unsubscribes OWNER TO portal_owner;

--
-- Name: password_resets; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.password_resets (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    code_hash bytea NOT NULL,
    issued_by uuid,
    issued_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    by_mail boolean DEFAULT false NOT NULL,
    CONSTRAINT password_resets_check CHECK ((expires_at > issued_at)),
    CONSTRAINT password_resets_code_hash_check CHECK ((length(code_hash) = 32))
);

ALTER TABLE ONLY public.password_resets FORCE ROW LEVEL SECURITY;


ALTER TABLE public.password_resets OWNER TO portal_owner;

--
-- Name: push_keys; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.push_keys (
    id smallint NOT NULL,
    private_pem text NOT NULL,
    public_point bytea NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT push_keys_id_check CHECK ((id = 1)),
    CONSTRAINT push_keys_public_point_check CHECK ((length(public_point) = 65))
);

ALTER TABLE ONLY public.push_keys FORCE ROW LEVEL SECURITY;


ALTER TABLE public.push_keys OWNER TO portal_owner;

--
-- Name: push_subscriptions; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.push_subscriptions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    endpoint text NOT NULL,
    p256dh bytea NOT NULL,
    auth bytea NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT push_subscriptions_auth_check CHECK ((length(auth) = 16)),
    CONSTRAINT push_subscriptions_endpoint_check CHECK ((((length(endpoint) >= 12) AND (length(endpoint) <= 1000)) AND (endpoint ~ '^https?://[^\s]+$'::text))),
    CONSTRAINT push_subscriptions_p256dh_check CHECK ((length(p256dh) = 65))
);

ALTER TABLE ONLY public.push_subscriptions FORCE ROW LEVEL SECURITY;


ALTER TABLE public.push_subscriptions OWNER TO portal_owner;

--
-- Name: question_reports; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.question_reports (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    question_id uuid NOT NULL,
    question_version integer NOT NULL,
    user_id uuid NOT NULL,
    reason text NOT NULL,
    comment text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    resolved_at timestamp with time zone,
    resolution text,
    resolution_note text DEFAULT ''::text NOT NULL,
    CONSTRAINT question_reports_comment_check CHECK ((length(comment) <= 2000)),
    CONSTRAINT question_reports_reason_check CHECK ((reason = ANY (ARRAY['wrong-answer'::text, 'unclear'::text, 'typo'::text, 'outdated'::text, 'other'::text]))),
    CONSTRAINT question_reports_resolution_check CHECK ((resolution = ANY (ARRAY['fixed'::text, 'dismissed'::text]))),
    CONSTRAINT question_reports_resolution_note_check CHECK ((length(resolution_note) <= 2000)),
    CONSTRAINT question_reports_resolved CHECK (((resolved_at IS NULL) = (resolution IS NULL)))
);

ALTER TABLE ONLY public.question_reports FORCE ROW LEVEL SECURITY;


ALTER TABLE public.question_reports OWNER TO portal_owner;

--
-- Name: question_versions; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.question_versions (
    question_id uuid NOT NULL,
    version integer NOT NULL,
    saved_at timestamp with time zone DEFAULT now() NOT NULL,
    snapshot jsonb NOT NULL
);


ALTER TABLE public.question_versions OWNER TO portal_owner;

--
-- Name: quiz_questions; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.quiz_questions (
    quiz_id uuid NOT NULL,
    question_id uuid NOT NULL,
    "position" integer NOT NULL,
    CONSTRAINT quiz_questions_position_check CHECK (("position" >= 0))
);

ALTER TABLE ONLY public.quiz_questions FORCE ROW LEVEL SECURITY;


ALTER TABLE public.quiz_questions OWNER TO portal_owner;

--
-- Name: quizzes; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.quizzes (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    teacher_id uuid NOT NULL,
    exam_id bigint NOT NULL,
    title text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT quizzes_title_check CHECK (((title = btrim(title)) AND ((length(title) >= 1) AND (length(title) <= 120))))
);

ALTER TABLE ONLY public.quizzes FORCE ROW LEVEL SECURITY;


ALTER TABLE public.quizzes OWNER TO portal_owner;

--
-- Name: rate_limits; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.rate_limits (
    bucket text NOT NULL,
    key_hash bytea NOT NULL,
    window_start timestamp with time zone NOT NULL,
    hits integer NOT NULL
);

ALTER TABLE ONLY public.rate_limits FORCE ROW LEVEL SECURITY;


ALTER TABLE public.rate_limits OWNER TO portal_owner;

--
-- Name: regions; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.regions (
    id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    "position" integer DEFAULT 0 NOT NULL,
    CONSTRAINT regions_code_check CHECK ((code ~ '^[a-z0-9][a-z0-9-]{0,39}$'::text)),
    CONSTRAINT regions_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
);


ALTER TABLE public.regions OWNER TO portal_owner;

--
-- Name: regions_id_seq; Type: SEQUENCE; Schema: public; Owner: portal_owner
--

ALTER TABLE public.regions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.regions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.schema_migrations OWNER TO portal_owner;

--
-- Name: schema_repeatables; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.schema_repeatables (
    path text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.schema_repeatables OWNER TO portal_owner;

--
-- Name: schools; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.schools (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT schools_name_check CHECK (((length(btrim(name)) >= 1) AND (length(btrim(name)) <= 200)))
);


ALTER TABLE public.schools OWNER TO portal_owner;

--
-- Name: server_clock; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.server_clock (
    singleton boolean DEFAULT true NOT NULL,
    offset_seconds double precision DEFAULT 0 NOT NULL,
    CONSTRAINT server_clock_singleton_check CHECK (singleton)
);


ALTER TABLE public.server_clock OWNER TO portal_owner;

--
-- Name: share_links; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.share_links (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    token_hash bytea NOT NULL,
    created_by uuid NOT NULL,
    exam_id bigint NOT NULL,
    class_id uuid,
    title text NOT NULL,
    mode text NOT NULL,
    domains text[] DEFAULT '{}'::text[] NOT NULL,
    difficulty_from integer DEFAULT 1 NOT NULL,
    difficulty_to integer DEFAULT 5 NOT NULL,
    question_count integer DEFAULT 20 NOT NULL,
    joins_class boolean DEFAULT false NOT NULL,
    due_at timestamp with time zone,
    expires_at timestamp with time zone,
    revoked_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    attempts integer,
    quiz_id uuid,
    time_limit_minutes integer,
    CONSTRAINT share_links_attempts_check CHECK (((attempts >= 1) AND (attempts <= 20))),
    CONSTRAINT share_links_check CHECK ((difficulty_from <= difficulty_to)),
    CONSTRAINT share_links_check1 CHECK (((NOT joins_class) OR (class_id IS NOT NULL))),
    CONSTRAINT share_links_difficulty_from_check CHECK (((difficulty_from >= 1) AND (difficulty_from <= 5))),
    CONSTRAINT share_links_difficulty_to_check CHECK (((difficulty_to >= 1) AND (difficulty_to <= 5))),
    CONSTRAINT share_links_mode_check CHECK ((mode = ANY (ARRAY['practice'::text, 'mock'::text]))),
    CONSTRAINT share_links_question_count_check CHECK (((question_count >= 1) AND (question_count <= 100))),
    CONSTRAINT share_links_quiz_class CHECK (((quiz_id IS NULL) OR (class_id IS NOT NULL))),
    CONSTRAINT share_links_time_limit_is_a_mocks CHECK (((time_limit_minutes IS NULL) OR (mode = 'mock'::text))),
    CONSTRAINT share_links_time_limit_minutes_check CHECK (((time_limit_minutes >= 1) AND (time_limit_minutes <= 600))),
    CONSTRAINT share_links_title_check CHECK (((length(btrim(title)) >= 1) AND (length(btrim(title)) <= 120))),
    CONSTRAINT share_links_token_hash_check CHECK ((length(token_hash) = 32))
);

ALTER TABLE ONLY public.share_links FORCE ROW LEVEL SECURITY;


ALTER TABLE public.share_links OWNER TO portal_owner;

--
-- Name: sso_exchanges; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.sso_exchanges (
    state_hash bytea NOT NULL,
    code text NOT NULL,
    redirect_uri text NOT NULL,
    requested_at timestamp with time zone NOT NULL,
    leased_until timestamp with time zone,
    id_token text,
    problem text,
    answered_at timestamp with time zone,
    finished_at timestamp with time zone,
    CONSTRAINT sso_exchanges_code_check CHECK (((length(code) >= 1) AND (length(code) <= 2000))),
    CONSTRAINT sso_exchanges_id_token_check CHECK ((length(id_token) <= 16384)),
    CONSTRAINT sso_exchanges_problem_check CHECK ((length(problem) <= 500)),
    CONSTRAINT sso_exchanges_redirect_uri_check CHECK (((redirect_uri ~ '^https?://[^\s]+$'::text) AND (length(redirect_uri) <= 600)))
);

ALTER TABLE ONLY public.sso_exchanges FORCE ROW LEVEL SECURITY;


ALTER TABLE public.sso_exchanges OWNER TO portal_owner;

--
-- Name: sso_providers; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.sso_providers (
    id bigint NOT NULL,
    issuer text NOT NULL,
    slug text NOT NULL,
    label text NOT NULL,
    client_id text NOT NULL,
    client_secret text,
    authorization_endpoint text NOT NULL,
    token_endpoint text NOT NULL,
    jwks_uri text NOT NULL,
    allowed_domains text[] DEFAULT '{}'::text[] NOT NULL,
    teacher_claim text,
    teacher_values text[] DEFAULT '{}'::text[] NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    client_auth text DEFAULT 'client_secret_post'::text NOT NULL,
    CONSTRAINT sso_providers_authorization_endpoint_check CHECK ((authorization_endpoint ~ '^https?://[^\s]+$'::text)),
    CONSTRAINT sso_providers_client_auth_check CHECK ((client_auth = ANY (ARRAY['client_secret_post'::text, 'private_key_jwt'::text]))),
    CONSTRAINT sso_providers_client_id_check CHECK (((length(client_id) >= 1) AND (length(client_id) <= 300))),
    CONSTRAINT sso_providers_client_secret_check CHECK (((client_secret IS NULL) OR ((length(client_secret) >= 1) AND (length(client_secret) <= 500)))),
    CONSTRAINT sso_providers_has_credentials CHECK (((client_auth = 'private_key_jwt'::text) OR (client_secret IS NOT NULL))),
    CONSTRAINT sso_providers_issuer_check CHECK (((issuer ~ '^https?://[^\s]+$'::text) AND (length(issuer) <= 300))),
    CONSTRAINT sso_providers_jwks_uri_check CHECK ((jwks_uri ~ '^https?://[^\s]+$'::text)),
    CONSTRAINT sso_providers_label_check CHECK (((length(btrim(label)) >= 1) AND (length(btrim(label)) <= 60))),
    CONSTRAINT sso_providers_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9-]{0,39}$'::text)),
    CONSTRAINT sso_providers_teacher_claim_check CHECK ((teacher_claim ~ '^[A-Za-z0-9_:./-]{1,100}$'::text)),
    CONSTRAINT sso_providers_token_endpoint_check CHECK ((token_endpoint ~ '^https?://[^\s]+$'::text))
);

ALTER TABLE ONLY public.sso_providers FORCE ROW LEVEL SECURITY;


ALTER TABLE public.sso_providers OWNER TO portal_owner;

--
-- Name: sso_providers_id_seq; Type: SEQUENCE; Schema: public; Owner: portal_owner
--

ALTER TABLE public.sso_providers ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.sso_providers_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: sso_states; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.sso_states (
    state_hash bytea NOT NULL,
    provider_id bigint NOT NULL,
    nonce text NOT NULL,
    verifier text NOT NULL,
    browser_hash bytea NOT NULL,
    link_user uuid,
    return_to text DEFAULT '/me'::text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    signed_in_at timestamp with time zone,
    CONSTRAINT sso_states_browser_hash_check CHECK ((octet_length(browser_hash) = 32)),
    CONSTRAINT sso_states_nonce_check CHECK ((nonce ~ '^[A-Za-z0-9_-]{16,64}$'::text)),
    CONSTRAINT sso_states_return_to_check CHECK (((return_to ~ '^/'::text) AND (length(return_to) <= 500))),
    CONSTRAINT sso_states_state_hash_check CHECK ((octet_length(state_hash) = 32)),
    CONSTRAINT sso_states_verifier_check CHECK ((verifier ~ '^[A-Za-z0-9_~.-]{43,128}$'::text))
);

ALTER TABLE ONLY public.sso_states FORCE ROW LEVEL SECURITY;


ALTER TABLE public.sso_states OWNER TO portal_owner;

--
-- Name: study_days; Type: VIEW; Schema: public; Owner: portal_owner
--

CREATE VIEW public.study_days WITH (security_invoker='true') AS
 SELECT a.user_id,
    ((a.answered_at AT TIME ZONE u.time_zone))::date AS day,
    count(*) AS answered,
    count(*) FILTER (WHERE a.correct) AS correct
   FROM (public.answers a
     JOIN public.users u ON ((u.id = a.user_id)))
  GROUP BY a.user_id, u.time_zone, (((a.answered_at AT TIME ZONE u.time_zone))::date);


ALTER TABLE public.study_days OWNER TO portal_owner;

--
-- Name: study_holidays; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.study_holidays (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    starts_on date NOT NULL,
    ends_on date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    moved_before integer DEFAULT 0 NOT NULL,
    moved_after integer DEFAULT 0 NOT NULL,
    CONSTRAINT study_holidays_check CHECK (((ends_on >= starts_on) AND ((ends_on - starts_on) < 62))),
    CONSTRAINT study_holidays_moved_after_check CHECK ((moved_after >= 0)),
    CONSTRAINT study_holidays_moved_before_check CHECK ((moved_before >= 0))
);

ALTER TABLE ONLY public.study_holidays FORCE ROW LEVEL SECURITY;


ALTER TABLE public.study_holidays OWNER TO portal_owner;

--
-- Name: teacher_invitations; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.teacher_invitations (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    token_hash bytea NOT NULL,
    school text NOT NULL,
    created_by uuid,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    uses_left integer NOT NULL,
    revoked_at timestamp with time zone,
    CONSTRAINT teacher_invitations_school_check CHECK (((school = btrim(school)) AND ((length(school) >= 1) AND (length(school) <= 120)))),
    CONSTRAINT teacher_invitations_token_hash_check CHECK ((length(token_hash) = 32)),
    CONSTRAINT teacher_invitations_uses_left_check CHECK (((uses_left >= 0) AND (uses_left <= 500)))
);

ALTER TABLE ONLY public.teacher_invitations FORCE ROW LEVEL SECURITY;


ALTER TABLE public.teacher_invitations OWNER TO portal_owner;

--
-- Name: teacher_requests; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.teacher_requests (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id uuid NOT NULL,
    school text NOT NULL,
    note text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    decision text,
    decided_at timestamp with time zone,
    decided_by uuid,
    CONSTRAINT teacher_requests_check CHECK (((decision IS NULL) = (decided_at IS NULL))),
    CONSTRAINT teacher_requests_decision_check CHECK ((decision = ANY (ARRAY['approved'::text, 'refused'::text]))),
    CONSTRAINT teacher_requests_note_check CHECK ((length(note) <= 1000)),
    CONSTRAINT teacher_requests_school_check CHECK (((school = btrim(school)) AND ((length(school) >= 1) AND (length(school) <= 120))))
);

ALTER TABLE ONLY public.teacher_requests FORCE ROW LEVEL SECURITY;


ALTER TABLE public.teacher_requests OWNER TO portal_owner;

--
-- Name: used_tokens; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.used_tokens (
    digest bytea NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    CONSTRAINT used_tokens_digest_check CHECK ((octet_length(digest) = 32))
);

ALTER TABLE ONLY public.used_tokens FORCE ROW LEVEL SECURITY;


ALTER TABLE public.used_tokens OWNER TO portal_owner;

--
-- Name: user_emails; Type: TABLE; Schema: public; Owner: portal_owner
--

CREATE TABLE public.user_emails (
    user_id uuid NOT NULL,
    email text NOT NULL,
    verified_at timestamp with time zone NOT NULL,
    CONSTRAINT user_emails_email_check CHECK ((((length(email) >= 3) AND (length(email) <= 254)) AND (email ~ '^[!-~]+@[A-Za-z0-9.-]+$'::text)))
);

ALTER TABLE ONLY public.user_emails FORCE ROW LEVEL SECURITY;


ALTER TABLE public.user_emails OWNER TO portal_owner;

--
-- Name: accommodations accommodations_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.accommodations
    ADD CONSTRAINT accommodations_pkey PRIMARY KEY (student_id);


--
-- Name: answers answers_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.answers
    ADD CONSTRAINT answers_pkey PRIMARY KEY (id);


--
-- Name: app_secrets app_secrets_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.app_secrets
    ADD CONSTRAINT app_secrets_pkey PRIMARY KEY (name);


--
-- Name: audit_log audit_log_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.audit_log
    ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id);


--
-- Name: auth_sessions auth_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.auth_sessions
    ADD CONSTRAINT auth_sessions_pkey PRIMARY KEY (id);


--
-- Name: auth_sessions auth_sessions_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.auth_sessions
    ADD CONSTRAINT auth_sessions_token_hash_key UNIQUE (token_hash);


--
-- Name: calendar_feeds calendar_feeds_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.calendar_feeds
    ADD CONSTRAINT calendar_feeds_pkey PRIMARY KEY (user_id);


--
-- Name: calendar_feeds calendar_feeds_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.calendar_feeds
    ADD CONSTRAINT calendar_feeds_token_hash_key UNIQUE (token_hash);


--
-- Name: class_account_batches class_account_batches_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.class_account_batches
    ADD CONSTRAINT class_account_batches_pkey PRIMARY KEY (id);


--
-- Name: class_members class_members_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.class_members
    ADD CONSTRAINT class_members_pkey PRIMARY KEY (class_id, user_id);


--
-- Name: classes classes_join_code_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.classes
    ADD CONSTRAINT classes_join_code_key UNIQUE (join_code);


--
-- Name: classes classes_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.classes
    ADD CONSTRAINT classes_pkey PRIMARY KEY (id);


--
-- Name: content_images content_images_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.content_images
    ADD CONSTRAINT content_images_pkey PRIMARY KEY (digest);


--
-- Name: data_exports data_exports_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.data_exports
    ADD CONSTRAINT data_exports_pkey PRIMARY KEY (user_id);


--
-- Name: domains domains_exam_id_slug_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.domains
    ADD CONSTRAINT domains_exam_id_slug_key UNIQUE (exam_id, slug);


--
-- Name: domains domains_id_exam; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.domains
    ADD CONSTRAINT domains_id_exam UNIQUE (id, exam_id);


--
-- Name: domains domains_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.domains
    ADD CONSTRAINT domains_pkey PRIMARY KEY (id);


--
-- Name: email_verifications email_verifications_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.email_verifications
    ADD CONSTRAINT email_verifications_pkey PRIMARY KEY (id);


--
-- Name: email_verifications email_verifications_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.email_verifications
    ADD CONSTRAINT email_verifications_token_hash_key UNIQUE (token_hash);


--
-- Name: event_results event_results_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.event_results
    ADD CONSTRAINT event_results_pkey PRIMARY KEY (event_id, participant_id);


--
-- Name: exam_dates exam_dates_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.exam_dates
    ADD CONSTRAINT exam_dates_pkey PRIMARY KEY (user_id, exam_id);


--
-- Name: exams exams_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.exams
    ADD CONSTRAINT exams_pkey PRIMARY KEY (id);


--
-- Name: exams exams_region_id_slug_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.exams
    ADD CONSTRAINT exams_region_id_slug_key UNIQUE (region_id, slug);


--
-- Name: external_identities external_identities_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.external_identities
    ADD CONSTRAINT external_identities_pkey PRIMARY KEY (kind, issuer, subject);


--
-- Name: form_sends form_sends_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.form_sends
    ADD CONSTRAINT form_sends_pkey PRIMARY KEY (token_hash);


--
-- Name: fsrs_weights fsrs_weights_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.fsrs_weights
    ADD CONSTRAINT fsrs_weights_pkey PRIMARY KEY (user_id);


--
-- Name: import_checks import_checks_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.import_checks
    ADD CONSTRAINT import_checks_pkey PRIMARY KEY (id);


--
-- Name: key_set_keys key_set_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.key_set_keys
    ADD CONSTRAINT key_set_keys_pkey PRIMARY KEY (jwks_uri, kid);


--
-- Name: key_sets key_sets_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.key_sets
    ADD CONSTRAINT key_sets_pkey PRIMARY KEY (jwks_uri);


--
-- Name: live_answers live_answers_participant_id_question_index_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_answers
    ADD CONSTRAINT live_answers_participant_id_question_index_key UNIQUE (participant_id, question_index);


--
-- Name: live_answers live_answers_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_answers
    ADD CONSTRAINT live_answers_pkey PRIMARY KEY (id);


--
-- Name: live_events live_events_code_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_events
    ADD CONSTRAINT live_events_code_key UNIQUE (code);


--
-- Name: live_events live_events_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_events
    ADD CONSTRAINT live_events_pkey PRIMARY KEY (id);


--
-- Name: live_participants live_participants_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_participants
    ADD CONSTRAINT live_participants_pkey PRIMARY KEY (id);


--
-- Name: login_addresses login_addresses_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.login_addresses
    ADD CONSTRAINT login_addresses_pkey PRIMARY KEY (user_id, address_hash);


--
-- Name: login_attempts login_attempts_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.login_attempts
    ADD CONSTRAINT login_attempts_pkey PRIMARY KEY (id);


--
-- Name: login_throttle login_throttle_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.login_throttle
    ADD CONSTRAINT login_throttle_pkey PRIMARY KEY (key_hash);


--
-- Name: lti_context_learners lti_context_learners_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_context_learners
    ADD CONSTRAINT lti_context_learners_pkey PRIMARY KEY (platform_id, context_id, user_id);


--
-- Name: lti_contexts lti_contexts_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_contexts
    ADD CONSTRAINT lti_contexts_pkey PRIMARY KEY (platform_id, context_id);


--
-- Name: lti_deep_links lti_deep_links_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_deep_links
    ADD CONSTRAINT lti_deep_links_pkey PRIMARY KEY (token_hash);


--
-- Name: lti_deployments lti_deployments_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_deployments
    ADD CONSTRAINT lti_deployments_pkey PRIMARY KEY (platform_id, deployment_id);


--
-- Name: lti_graded_sessions lti_graded_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_graded_sessions
    ADD CONSTRAINT lti_graded_sessions_pkey PRIMARY KEY (session_id);


--
-- Name: lti_handoffs lti_handoffs_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_handoffs
    ADD CONSTRAINT lti_handoffs_pkey PRIMARY KEY (token_hash);


--
-- Name: lti_platforms lti_platforms_issuer_client_id_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_platforms
    ADD CONSTRAINT lti_platforms_issuer_client_id_key UNIQUE (issuer, client_id);


--
-- Name: lti_platforms lti_platforms_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_platforms
    ADD CONSTRAINT lti_platforms_pkey PRIMARY KEY (id);


--
-- Name: lti_score_outbox lti_score_outbox_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_score_outbox
    ADD CONSTRAINT lti_score_outbox_pkey PRIMARY KEY (session_id);


--
-- Name: lti_states lti_states_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_states
    ADD CONSTRAINT lti_states_pkey PRIMARY KEY (state_hash);


--
-- Name: lti_tool_keys lti_tool_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_tool_keys
    ADD CONSTRAINT lti_tool_keys_pkey PRIMARY KEY (kid);


--
-- Name: mail_outbox mail_outbox_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.mail_outbox
    ADD CONSTRAINT mail_outbox_pkey PRIMARY KEY (id);


--
-- Name: mail_unsubscribes mail_unsubscribes_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.mail_unsubscribes
    ADD CONSTRAINT mail_unsubscribes_pkey PRIMARY KEY (token_hash);


--
-- Name: password_resets password_resets_code_hash_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.password_resets
    ADD CONSTRAINT password_resets_code_hash_key UNIQUE (code_hash);


--
-- Name: password_resets password_resets_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.password_resets
    ADD CONSTRAINT password_resets_pkey PRIMARY KEY (id);


--
-- Name: push_keys push_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.push_keys
    ADD CONSTRAINT push_keys_pkey PRIMARY KEY (id);


--
-- Name: push_subscriptions push_subscriptions_endpoint_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.push_subscriptions
    ADD CONSTRAINT push_subscriptions_endpoint_key UNIQUE (endpoint);


--
-- Name: push_subscriptions push_subscriptions_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.push_subscriptions
    ADD CONSTRAINT push_subscriptions_pkey PRIMARY KEY (id);


--
-- Name: question_reports question_reports_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.question_reports
    ADD CONSTRAINT question_reports_pkey PRIMARY KEY (id);


--
-- Name: question_versions question_versions_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.question_versions
    ADD CONSTRAINT question_versions_pkey PRIMARY KEY (question_id, version);


--
-- Name: questions questions_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.questions
    ADD CONSTRAINT questions_pkey PRIMARY KEY (id);


--
-- Name: questions questions_source_key_per_exam; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.questions
    ADD CONSTRAINT questions_source_key_per_exam UNIQUE (exam_id, source_key);


--
-- Name: quiz_questions quiz_questions_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.quiz_questions
    ADD CONSTRAINT quiz_questions_pkey PRIMARY KEY (quiz_id, question_id);


--
-- Name: quizzes quizzes_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.quizzes
    ADD CONSTRAINT quizzes_pkey PRIMARY KEY (id);


--
-- Name: rate_limits rate_limits_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.rate_limits
    ADD CONSTRAINT rate_limits_pkey PRIMARY KEY (bucket, key_hash);


--
-- Name: regions regions_code_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.regions
    ADD CONSTRAINT regions_code_key UNIQUE (code);


--
-- Name: regions regions_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.regions
    ADD CONSTRAINT regions_pkey PRIMARY KEY (id);


--
-- Name: review_cards review_cards_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.review_cards
    ADD CONSTRAINT review_cards_pkey PRIMARY KEY (user_id, question_id);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: schema_repeatables schema_repeatables_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.schema_repeatables
    ADD CONSTRAINT schema_repeatables_pkey PRIMARY KEY (path);


--
-- Name: schools schools_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.schools
    ADD CONSTRAINT schools_pkey PRIMARY KEY (id);


--
-- Name: server_clock server_clock_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.server_clock
    ADD CONSTRAINT server_clock_pkey PRIMARY KEY (singleton);


--
-- Name: share_links share_links_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.share_links
    ADD CONSTRAINT share_links_pkey PRIMARY KEY (id);


--
-- Name: share_links share_links_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.share_links
    ADD CONSTRAINT share_links_token_hash_key UNIQUE (token_hash);


--
-- Name: sso_exchanges sso_exchanges_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.sso_exchanges
    ADD CONSTRAINT sso_exchanges_pkey PRIMARY KEY (state_hash);


--
-- Name: sso_providers sso_providers_issuer_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.sso_providers
    ADD CONSTRAINT sso_providers_issuer_key UNIQUE (issuer);


--
-- Name: sso_providers sso_providers_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.sso_providers
    ADD CONSTRAINT sso_providers_pkey PRIMARY KEY (id);


--
-- Name: sso_providers sso_providers_slug_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.sso_providers
    ADD CONSTRAINT sso_providers_slug_key UNIQUE (slug);


--
-- Name: sso_states sso_states_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.sso_states
    ADD CONSTRAINT sso_states_pkey PRIMARY KEY (state_hash);


--
-- Name: study_holidays study_holidays_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.study_holidays
    ADD CONSTRAINT study_holidays_pkey PRIMARY KEY (id);


--
-- Name: study_sessions study_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.study_sessions
    ADD CONSTRAINT study_sessions_pkey PRIMARY KEY (id);


--
-- Name: teacher_invitations teacher_invitations_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.teacher_invitations
    ADD CONSTRAINT teacher_invitations_pkey PRIMARY KEY (id);


--
-- Name: teacher_invitations teacher_invitations_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.teacher_invitations
    ADD CONSTRAINT teacher_invitations_token_hash_key UNIQUE (token_hash);


--
-- Name: teacher_requests teacher_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.teacher_requests
    ADD CONSTRAINT teacher_requests_pkey PRIMARY KEY (id);


--
-- Name: used_tokens used_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.used_tokens
    ADD CONSTRAINT used_tokens_pkey PRIMARY KEY (digest);


--
-- Name: user_emails user_emails_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.user_emails
    ADD CONSTRAINT user_emails_pkey PRIMARY KEY (user_id);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: answers_by_session; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX answers_by_session ON public.answers USING btree (session_id, question_id, answered_at DESC);


--
-- Name: answers_by_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX answers_by_user ON public.answers USING btree (user_id, answered_at) WHERE (user_id IS NOT NULL);


--
-- Name: answers_pace; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX answers_pace ON public.answers USING btree (user_id, difficulty, answered_at DESC) INCLUDE (time_ms) WHERE (correct AND (user_id IS NOT NULL));


--
-- Name: audit_log_by_action; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX audit_log_by_action ON public.audit_log USING btree (action, at DESC);


--
-- Name: audit_log_recent; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX audit_log_recent ON public.audit_log USING btree (at DESC);


--
-- Name: auth_sessions_by_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX auth_sessions_by_user ON public.auth_sessions USING btree (user_id);


--
-- Name: class_account_batches_made; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX class_account_batches_made ON public.class_account_batches USING btree (made_at) WHERE codes_shown;


--
-- Name: class_members_by_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX class_members_by_user ON public.class_members USING btree (user_id) WHERE (left_at IS NULL);


--
-- Name: classes_by_teacher; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX classes_by_teacher ON public.classes USING btree (teacher_id);


--
-- Name: domains_by_exam; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX domains_by_exam ON public.domains USING btree (exam_id);


--
-- Name: email_verifications_by_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX email_verifications_by_user ON public.email_verifications USING btree (user_id);


--
-- Name: external_identities_by_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX external_identities_by_user ON public.external_identities USING btree (user_id);


--
-- Name: form_sends_created; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX form_sends_created ON public.form_sends USING btree (created_at);


--
-- Name: import_checks_admin; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX import_checks_admin ON public.import_checks USING btree (admin_id, created_at);


--
-- Name: leaderboard_entries_key; Type: INDEX; Schema: public; Owner: portal_leaderboard
--

CREATE UNIQUE INDEX leaderboard_entries_key ON public.leaderboard_entries USING btree (period, exam_id, user_id);


--
-- Name: leaderboard_entries_position; Type: INDEX; Schema: public; Owner: portal_leaderboard
--

CREATE INDEX leaderboard_entries_position ON public.leaderboard_entries USING btree (exam_id, period, place);


--
-- Name: leaderboard_refreshes_latest; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX leaderboard_refreshes_latest ON public.leaderboard_refreshes USING btree (refreshed_at DESC);


--
-- Name: live_answers_by_event; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX live_answers_by_event ON public.live_answers USING btree (event_id, participant_id, question_index);


--
-- Name: live_participants_guest; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE UNIQUE INDEX live_participants_guest ON public.live_participants USING btree (event_id, guest_key) WHERE (guest_key IS NOT NULL);


--
-- Name: live_participants_guest_age; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX live_participants_guest_age ON public.live_participants USING btree (joined_at) WHERE (guest_key IS NOT NULL);


--
-- Name: live_participants_nickname; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE UNIQUE INDEX live_participants_nickname ON public.live_participants USING btree (event_id, lower(nickname));


--
-- Name: live_participants_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE UNIQUE INDEX live_participants_user ON public.live_participants USING btree (event_id, user_id) WHERE (user_id IS NOT NULL);


--
-- Name: login_attempts_expiry; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX login_attempts_expiry ON public.login_attempts USING btree (expires_at);


--
-- Name: login_throttle_stale; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX login_throttle_stale ON public.login_throttle USING btree (last_failure_at);


--
-- Name: lti_graded_sessions_by_link; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX lti_graded_sessions_by_link ON public.lti_graded_sessions USING btree (platform_id, resource_link_id, subject);


--
-- Name: lti_handoffs_by_age; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX lti_handoffs_by_age ON public.lti_handoffs USING btree (created_at);


--
-- Name: lti_score_outbox_due; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX lti_score_outbox_due ON public.lti_score_outbox USING btree (next_attempt_at) WHERE (sent_at IS NULL);


--
-- Name: lti_states_by_age; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX lti_states_by_age ON public.lti_states USING btree (created_at);


--
-- Name: lti_tool_keys_one_current; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE UNIQUE INDEX lti_tool_keys_one_current ON public.lti_tool_keys USING btree ((true)) WHERE (retired_at IS NULL);


--
-- Name: mail_outbox_done; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX mail_outbox_done ON public.mail_outbox USING btree (created_at) WHERE ((sent_at IS NOT NULL) OR (given_up_at IS NOT NULL));


--
-- Name: mail_outbox_due; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX mail_outbox_due ON public.mail_outbox USING btree (next_attempt_at) WHERE ((sent_at IS NULL) AND (given_up_at IS NULL));


--
-- Name: mail_unsubscribes_age; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX mail_unsubscribes_age ON public.mail_unsubscribes USING btree (created_at);


--
-- Name: password_resets_by_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX password_resets_by_user ON public.password_resets USING btree (user_id);


--
-- Name: password_resets_expiry; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX password_resets_expiry ON public.password_resets USING btree (expires_at);


--
-- Name: push_subscriptions_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX push_subscriptions_user ON public.push_subscriptions USING btree (user_id);


--
-- Name: question_reports_open; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX question_reports_open ON public.question_reports USING btree (created_at) WHERE (resolved_at IS NULL);


--
-- Name: questions_by_domain_updated; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX questions_by_domain_updated ON public.questions USING btree (domain_id, updated_at);


--
-- Name: questions_published_by_domain_difficulty; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX questions_published_by_domain_difficulty ON public.questions USING btree (domain_id, difficulty) WHERE ((status = 'published'::text) AND (deleted_at IS NULL));


--
-- Name: questions_search; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX questions_search ON public.questions USING gin ((((stem || ' '::text) || (options)::text)) public.gin_trgm_ops);


--
-- Name: quiz_questions_order; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX quiz_questions_order ON public.quiz_questions USING btree (quiz_id, "position");


--
-- Name: quizzes_teacher; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX quizzes_teacher ON public.quizzes USING btree (teacher_id, created_at DESC);


--
-- Name: rate_limits_window; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX rate_limits_window ON public.rate_limits USING btree (window_start);


--
-- Name: review_cards_due; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX review_cards_due ON public.review_cards USING btree (user_id, due);


--
-- Name: schools_name; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE UNIQUE INDEX schools_name ON public.schools USING btree (lower(btrim(name)));


--
-- Name: share_links_by_class; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX share_links_by_class ON public.share_links USING btree (class_id) WHERE (class_id IS NOT NULL);


--
-- Name: share_links_quiz; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX share_links_quiz ON public.share_links USING btree (quiz_id) WHERE (quiz_id IS NOT NULL);


--
-- Name: sso_exchanges_waiting; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX sso_exchanges_waiting ON public.sso_exchanges USING btree (requested_at) WHERE (answered_at IS NULL);


--
-- Name: sso_states_by_age; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX sso_states_by_age ON public.sso_states USING btree (created_at);


--
-- Name: study_holidays_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX study_holidays_user ON public.study_holidays USING btree (user_id, ends_on);


--
-- Name: study_sessions_by_guest; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX study_sessions_by_guest ON public.study_sessions USING btree (guest_key) WHERE (guest_key IS NOT NULL);


--
-- Name: study_sessions_by_share_link; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX study_sessions_by_share_link ON public.study_sessions USING btree (share_link_id) WHERE (share_link_id IS NOT NULL);


--
-- Name: study_sessions_by_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX study_sessions_by_user ON public.study_sessions USING btree (user_id, started_at DESC) WHERE (user_id IS NOT NULL);


--
-- Name: study_sessions_guest_age; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX study_sessions_guest_age ON public.study_sessions USING btree (started_at) WHERE (guest_key IS NOT NULL);


--
-- Name: study_sessions_running_mocks; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX study_sessions_running_mocks ON public.study_sessions USING btree (exam_id) WHERE ((mode = 'mock'::text) AND (finished_at IS NULL));


--
-- Name: teacher_requests_one_open; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE UNIQUE INDEX teacher_requests_one_open ON public.teacher_requests USING btree (user_id) WHERE (decision IS NULL);


--
-- Name: teacher_requests_open; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX teacher_requests_open ON public.teacher_requests USING btree (created_at) WHERE (decision IS NULL);


--
-- Name: teacher_requests_user; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX teacher_requests_user ON public.teacher_requests USING btree (user_id, decided_at);


--
-- Name: used_tokens_by_expiry; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX used_tokens_by_expiry ON public.used_tokens USING btree (expires_at);


--
-- Name: user_emails_address; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE UNIQUE INDEX user_emails_address ON public.user_emails USING btree (lower(email));


--
-- Name: users_by_age; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX users_by_age ON public.users USING btree (created_at) WHERE ((role = 'student'::text) AND (made_by IS NULL));


--
-- Name: users_digest; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX users_digest ON public.users USING btree (id) WHERE (digest <> 'off'::text);


--
-- Name: users_made_by; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE INDEX users_made_by ON public.users USING btree (made_by, created_at) WHERE (made_by IS NOT NULL);


--
-- Name: users_username_unique; Type: INDEX; Schema: public; Owner: portal_owner
--

CREATE UNIQUE INDEX users_username_unique ON public.users USING btree (lower(username));


--
-- Name: domain_accuracy_weekly _RETURN; Type: RULE; Schema: public; Owner: portal_owner
--

CREATE OR REPLACE VIEW public.domain_accuracy_weekly WITH (security_invoker='true') AS
 SELECT a.user_id,
    d.exam_id,
    d.id AS domain_id,
    d.slug AS domain_slug,
    d.title AS domain_title,
    (date_trunc('week'::text, (a.answered_at AT TIME ZONE u.time_zone)))::date AS week,
    count(*) AS answered,
    count(*) FILTER (WHERE a.correct) AS correct
   FROM (((public.answers a
     JOIN public.users u ON ((u.id = a.user_id)))
     JOIN public.questions q ON ((q.id = a.question_id)))
     JOIN public.domains d ON ((d.id = q.domain_id)))
  GROUP BY a.user_id, d.exam_id, d.id, u.time_zone, (date_trunc('week'::text, (a.answered_at AT TIME ZONE u.time_zone)));


--
-- Name: answers answers_admit; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER answers_admit BEFORE INSERT ON public.answers FOR EACH ROW EXECUTE FUNCTION public.answers_admit();


--
-- Name: answers answers_data_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER answers_data_version AFTER DELETE OR UPDATE ON public.answers FOR EACH ROW EXECUTE FUNCTION public.data_version_bump();


--
-- Name: answers answers_schedule; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER answers_schedule AFTER INSERT ON public.answers REFERENCING NEW TABLE AS admitted FOR EACH STATEMENT EXECUTE FUNCTION public.answers_schedule();


--
-- Name: auth_sessions auth_sessions_notify; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER auth_sessions_notify AFTER DELETE ON public.auth_sessions FOR EACH ROW EXECUTE FUNCTION public.notify_session_ended();


--
-- Name: class_members class_members_data_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER class_members_data_version AFTER INSERT OR DELETE OR UPDATE ON public.class_members FOR EACH ROW EXECUTE FUNCTION public.data_version_bump();


--
-- Name: class_members class_members_notify; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER class_members_notify AFTER INSERT OR DELETE OR UPDATE ON public.class_members FOR EACH ROW EXECUTE FUNCTION public.notify_class_changed();


--
-- Name: classes classes_notify; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER classes_notify AFTER UPDATE OF public_boards ON public.classes FOR EACH ROW EXECUTE FUNCTION public.notify_class_row_changed();


--
-- Name: domains domains_notify; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER domains_notify AFTER INSERT OR DELETE OR UPDATE ON public.domains FOR EACH STATEMENT EXECUTE FUNCTION public.notify_content();


--
-- Name: domains domains_touch_insert; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER domains_touch_insert AFTER INSERT ON public.domains REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION public.exams_touch_from_domains();


--
-- Name: domains domains_touch_update; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER domains_touch_update AFTER UPDATE ON public.domains REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION public.exams_touch_from_domains();


--
-- Name: exam_dates exam_dates_data_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER exam_dates_data_version AFTER INSERT OR DELETE OR UPDATE ON public.exam_dates FOR EACH ROW EXECUTE FUNCTION public.data_version_bump();


--
-- Name: exams exams_notify; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER exams_notify AFTER INSERT OR DELETE OR UPDATE ON public.exams FOR EACH STATEMENT EXECUTE FUNCTION public.notify_content();


--
-- Name: exams exams_touch; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER exams_touch BEFORE UPDATE ON public.exams FOR EACH ROW EXECUTE FUNCTION public.exams_touch_self();


--
-- Name: fsrs_weights fsrs_weights_data_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER fsrs_weights_data_version AFTER INSERT OR DELETE OR UPDATE ON public.fsrs_weights FOR EACH ROW EXECUTE FUNCTION public.data_version_bump();


--
-- Name: leaderboard_refreshes leaderboard_refreshes_notify; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER leaderboard_refreshes_notify AFTER INSERT ON public.leaderboard_refreshes FOR EACH STATEMENT EXECUTE FUNCTION public.notify_leaderboard();


--
-- Name: live_answers live_answers_admit; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER live_answers_admit BEFORE INSERT ON public.live_answers FOR EACH ROW EXECUTE FUNCTION public.live_answers_admit();


--
-- Name: lti_platforms lti_platforms_key_set; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER lti_platforms_key_set AFTER INSERT OR UPDATE OF jwks_url ON public.lti_platforms FOR EACH STATEMENT EXECUTE FUNCTION public.key_sets_registered();


--
-- Name: questions questions_exam; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER questions_exam BEFORE INSERT OR UPDATE OF domain_id, exam_id ON public.questions FOR EACH ROW EXECUTE FUNCTION public.questions_set_exam();


--
-- Name: questions questions_hold_unnamed; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER questions_hold_unnamed BEFORE INSERT OR UPDATE ON public.questions FOR EACH ROW EXECUTE FUNCTION public.questions_hold_unnamed_pictures();


--
-- Name: questions questions_keep_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER questions_keep_version AFTER INSERT OR UPDATE ON public.questions FOR EACH ROW EXECUTE FUNCTION public.questions_keep_version();


--
-- Name: questions questions_touch_delete; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER questions_touch_delete AFTER DELETE ON public.questions REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION public.exams_touch_from_questions();


--
-- Name: questions questions_touch_insert; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER questions_touch_insert AFTER INSERT ON public.questions REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION public.exams_touch_from_questions();


--
-- Name: questions questions_touch_update; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER questions_touch_update AFTER UPDATE ON public.questions REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION public.exams_touch_from_questions();


--
-- Name: questions questions_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER questions_version BEFORE UPDATE ON public.questions FOR EACH ROW EXECUTE FUNCTION public.questions_bump_version();


--
-- Name: quiz_questions quiz_questions_check; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER quiz_questions_check BEFORE INSERT OR UPDATE ON public.quiz_questions FOR EACH ROW EXECUTE FUNCTION public.quiz_questions_check();


--
-- Name: regions regions_notify; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER regions_notify AFTER INSERT OR DELETE OR UPDATE ON public.regions FOR EACH STATEMENT EXECUTE FUNCTION public.notify_content();


--
-- Name: share_links share_links_notify; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER share_links_notify AFTER INSERT OR DELETE OR UPDATE ON public.share_links FOR EACH ROW EXECUTE FUNCTION public.notify_class_changed();


--
-- Name: sso_providers sso_providers_key_set; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER sso_providers_key_set AFTER INSERT OR UPDATE OF jwks_uri ON public.sso_providers FOR EACH STATEMENT EXECUTE FUNCTION public.key_sets_registered();


--
-- Name: study_holidays study_holidays_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER study_holidays_version AFTER INSERT OR DELETE ON public.study_holidays FOR EACH ROW EXECUTE FUNCTION public.data_version_bump();


--
-- Name: study_sessions study_sessions_admit; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER study_sessions_admit BEFORE INSERT ON public.study_sessions FOR EACH ROW EXECUTE FUNCTION public.study_sessions_admit();


--
-- Name: study_sessions study_sessions_attempts; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER study_sessions_attempts BEFORE INSERT ON public.study_sessions FOR EACH ROW EXECUTE FUNCTION public.study_sessions_attempts();


--
-- Name: study_sessions study_sessions_data_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER study_sessions_data_version AFTER INSERT OR DELETE OR UPDATE ON public.study_sessions FOR EACH ROW EXECUTE FUNCTION public.data_version_bump();


--
-- Name: study_sessions study_sessions_frozen; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER study_sessions_frozen BEFORE UPDATE ON public.study_sessions FOR EACH ROW EXECUTE FUNCTION public.study_sessions_frozen();


--
-- Name: study_sessions study_sessions_lti_score; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER study_sessions_lti_score AFTER UPDATE OF finished_at ON public.study_sessions FOR EACH ROW WHEN (((old.finished_at IS NULL) AND (new.finished_at IS NOT NULL))) EXECUTE FUNCTION public.lti_queue_score();


--
-- Name: teacher_requests teacher_requests_data_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER teacher_requests_data_version AFTER INSERT OR DELETE OR UPDATE ON public.teacher_requests FOR EACH ROW EXECUTE FUNCTION public.data_version_bump();


--
-- Name: users users_appearance_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER users_appearance_version BEFORE UPDATE OF color_scheme ON public.users FOR EACH ROW WHEN ((old.color_scheme IS DISTINCT FROM new.color_scheme)) EXECUTE FUNCTION public.users_visibility_version();


--
-- Name: users users_credentials_changed; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER users_credentials_changed AFTER UPDATE OF password_hash, disabled_at ON public.users FOR EACH ROW WHEN (((old.password_hash IS DISTINCT FROM new.password_hash) OR (old.disabled_at IS DISTINCT FROM new.disabled_at))) EXECUTE FUNCTION public.users_end_sessions();


--
-- Name: users users_digest_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER users_digest_version BEFORE UPDATE OF digest ON public.users FOR EACH ROW WHEN ((old.digest IS DISTINCT FROM new.digest)) EXECUTE FUNCTION public.users_visibility_version();


--
-- Name: users users_notify; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER users_notify AFTER UPDATE ON public.users FOR EACH ROW WHEN (((old.role IS DISTINCT FROM new.role) OR (old.display_name IS DISTINCT FROM new.display_name) OR (old.locale IS DISTINCT FROM new.locale) OR (old.time_zone IS DISTINCT FROM new.time_zone) OR (old.disabled_at IS DISTINCT FROM new.disabled_at) OR (old.password_hash IS DISTINCT FROM new.password_hash) OR (old.color_scheme IS DISTINCT FROM new.color_scheme) OR (old.hides_readings IS DISTINCT FROM new.hides_readings) OR (old.reads_aloud IS DISTINCT FROM new.reads_aloud))) EXECUTE FUNCTION public.notify_account_changed();


--
-- Name: users users_read_aloud_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER users_read_aloud_version BEFORE UPDATE OF reads_aloud ON public.users FOR EACH ROW WHEN ((old.reads_aloud IS DISTINCT FROM new.reads_aloud)) EXECUTE FUNCTION public.users_visibility_version();


--
-- Name: users users_readings_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER users_readings_version BEFORE UPDATE OF hides_readings ON public.users FOR EACH ROW WHEN ((old.hides_readings IS DISTINCT FROM new.hides_readings)) EXECUTE FUNCTION public.users_visibility_version();


--
-- Name: users users_retention_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER users_retention_version BEFORE UPDATE OF desired_retention ON public.users FOR EACH ROW WHEN ((old.desired_retention IS DISTINCT FROM new.desired_retention)) EXECUTE FUNCTION public.users_visibility_version();


--
-- Name: users users_rhythm_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER users_rhythm_version BEFORE UPDATE OF balance_reviews, easy_days, study_time ON public.users FOR EACH ROW WHEN (((old.balance_reviews IS DISTINCT FROM new.balance_reviews) OR (old.easy_days IS DISTINCT FROM new.easy_days) OR (old.study_time IS DISTINCT FROM new.study_time))) EXECUTE FUNCTION public.users_visibility_version();


--
-- Name: users users_visibility_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER users_visibility_version BEFORE UPDATE OF show_on_leaderboard ON public.users FOR EACH ROW WHEN ((old.show_on_leaderboard IS DISTINCT FROM new.show_on_leaderboard)) EXECUTE FUNCTION public.users_visibility_version();


--
-- Name: users users_zone_confirmed_version; Type: TRIGGER; Schema: public; Owner: portal_owner
--

CREATE TRIGGER users_zone_confirmed_version BEFORE UPDATE OF time_zone_confirmed ON public.users FOR EACH ROW WHEN ((old.time_zone_confirmed IS DISTINCT FROM new.time_zone_confirmed)) EXECUTE FUNCTION public.users_visibility_version();


--
-- Name: accommodations accommodations_set_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.accommodations
    ADD CONSTRAINT accommodations_set_by_fkey FOREIGN KEY (set_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: accommodations accommodations_student_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.accommodations
    ADD CONSTRAINT accommodations_student_id_fkey FOREIGN KEY (student_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: answers answers_question_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.answers
    ADD CONSTRAINT answers_question_id_fkey FOREIGN KEY (question_id) REFERENCES public.questions(id);


--
-- Name: answers answers_session_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.answers
    ADD CONSTRAINT answers_session_id_fkey FOREIGN KEY (session_id) REFERENCES public.study_sessions(id) ON DELETE CASCADE;


--
-- Name: answers answers_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.answers
    ADD CONSTRAINT answers_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: audit_log audit_log_actor_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.audit_log
    ADD CONSTRAINT audit_log_actor_id_fkey FOREIGN KEY (actor_id) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: auth_sessions auth_sessions_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.auth_sessions
    ADD CONSTRAINT auth_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: calendar_feeds calendar_feeds_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.calendar_feeds
    ADD CONSTRAINT calendar_feeds_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: class_account_batches class_account_batches_class_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.class_account_batches
    ADD CONSTRAINT class_account_batches_class_id_fkey FOREIGN KEY (class_id) REFERENCES public.classes(id) ON DELETE CASCADE;


--
-- Name: class_account_batches class_account_batches_teacher_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.class_account_batches
    ADD CONSTRAINT class_account_batches_teacher_id_fkey FOREIGN KEY (teacher_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: class_members class_members_class_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.class_members
    ADD CONSTRAINT class_members_class_id_fkey FOREIGN KEY (class_id) REFERENCES public.classes(id) ON DELETE CASCADE;


--
-- Name: class_members class_members_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.class_members
    ADD CONSTRAINT class_members_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: classes classes_school_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.classes
    ADD CONSTRAINT classes_school_id_fkey FOREIGN KEY (school_id) REFERENCES public.schools(id);


--
-- Name: classes classes_teacher_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.classes
    ADD CONSTRAINT classes_teacher_id_fkey FOREIGN KEY (teacher_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: data_exports data_exports_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.data_exports
    ADD CONSTRAINT data_exports_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: domains domains_exam_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.domains
    ADD CONSTRAINT domains_exam_id_fkey FOREIGN KEY (exam_id) REFERENCES public.exams(id);


--
-- Name: email_verifications email_verifications_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.email_verifications
    ADD CONSTRAINT email_verifications_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: event_results event_results_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.event_results
    ADD CONSTRAINT event_results_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.live_events(id) ON DELETE CASCADE;


--
-- Name: event_results event_results_participant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.event_results
    ADD CONSTRAINT event_results_participant_id_fkey FOREIGN KEY (participant_id) REFERENCES public.live_participants(id) ON DELETE CASCADE;


--
-- Name: exam_dates exam_dates_exam_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.exam_dates
    ADD CONSTRAINT exam_dates_exam_id_fkey FOREIGN KEY (exam_id) REFERENCES public.exams(id) ON DELETE CASCADE;


--
-- Name: exam_dates exam_dates_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.exam_dates
    ADD CONSTRAINT exam_dates_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: exams exams_region_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.exams
    ADD CONSTRAINT exams_region_id_fkey FOREIGN KEY (region_id) REFERENCES public.regions(id);


--
-- Name: external_identities external_identities_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.external_identities
    ADD CONSTRAINT external_identities_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: form_sends form_sends_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.form_sends
    ADD CONSTRAINT form_sends_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: fsrs_weights fsrs_weights_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.fsrs_weights
    ADD CONSTRAINT fsrs_weights_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: import_checks import_checks_admin_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.import_checks
    ADD CONSTRAINT import_checks_admin_id_fkey FOREIGN KEY (admin_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: key_set_keys key_set_keys_jwks_uri_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.key_set_keys
    ADD CONSTRAINT key_set_keys_jwks_uri_fkey FOREIGN KEY (jwks_uri) REFERENCES public.key_sets(jwks_uri) ON DELETE CASCADE;


--
-- Name: live_answers live_answers_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_answers
    ADD CONSTRAINT live_answers_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.live_events(id) ON DELETE CASCADE;


--
-- Name: live_answers live_answers_participant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_answers
    ADD CONSTRAINT live_answers_participant_id_fkey FOREIGN KEY (participant_id) REFERENCES public.live_participants(id) ON DELETE CASCADE;


--
-- Name: live_answers live_answers_question_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_answers
    ADD CONSTRAINT live_answers_question_id_fkey FOREIGN KEY (question_id) REFERENCES public.questions(id);


--
-- Name: live_events live_events_exam_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_events
    ADD CONSTRAINT live_events_exam_id_fkey FOREIGN KEY (exam_id) REFERENCES public.exams(id);


--
-- Name: live_events live_events_host_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_events
    ADD CONSTRAINT live_events_host_id_fkey FOREIGN KEY (host_id) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: live_participants live_participants_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_participants
    ADD CONSTRAINT live_participants_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.live_events(id) ON DELETE CASCADE;


--
-- Name: live_participants live_participants_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.live_participants
    ADD CONSTRAINT live_participants_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: login_addresses login_addresses_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.login_addresses
    ADD CONSTRAINT login_addresses_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: lti_context_learners lti_context_learners_platform_id_context_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_context_learners
    ADD CONSTRAINT lti_context_learners_platform_id_context_id_fkey FOREIGN KEY (platform_id, context_id) REFERENCES public.lti_contexts(platform_id, context_id) ON DELETE CASCADE;


--
-- Name: lti_context_learners lti_context_learners_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_context_learners
    ADD CONSTRAINT lti_context_learners_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: lti_contexts lti_contexts_class_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_contexts
    ADD CONSTRAINT lti_contexts_class_id_fkey FOREIGN KEY (class_id) REFERENCES public.classes(id) ON DELETE SET NULL;


--
-- Name: lti_contexts lti_contexts_platform_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_contexts
    ADD CONSTRAINT lti_contexts_platform_id_fkey FOREIGN KEY (platform_id) REFERENCES public.lti_platforms(id) ON DELETE CASCADE;


--
-- Name: lti_deep_links lti_deep_links_platform_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_deep_links
    ADD CONSTRAINT lti_deep_links_platform_id_fkey FOREIGN KEY (platform_id) REFERENCES public.lti_platforms(id) ON DELETE CASCADE;


--
-- Name: lti_deep_links lti_deep_links_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_deep_links
    ADD CONSTRAINT lti_deep_links_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: lti_deployments lti_deployments_platform_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_deployments
    ADD CONSTRAINT lti_deployments_platform_id_fkey FOREIGN KEY (platform_id) REFERENCES public.lti_platforms(id) ON DELETE CASCADE;


--
-- Name: lti_graded_sessions lti_graded_sessions_platform_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_graded_sessions
    ADD CONSTRAINT lti_graded_sessions_platform_id_fkey FOREIGN KEY (platform_id) REFERENCES public.lti_platforms(id) ON DELETE CASCADE;


--
-- Name: lti_graded_sessions lti_graded_sessions_session_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_graded_sessions
    ADD CONSTRAINT lti_graded_sessions_session_id_fkey FOREIGN KEY (session_id) REFERENCES public.study_sessions(id) ON DELETE CASCADE;


--
-- Name: lti_score_outbox lti_score_outbox_platform_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_score_outbox
    ADD CONSTRAINT lti_score_outbox_platform_id_fkey FOREIGN KEY (platform_id) REFERENCES public.lti_platforms(id) ON DELETE CASCADE;


--
-- Name: lti_score_outbox lti_score_outbox_session_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_score_outbox
    ADD CONSTRAINT lti_score_outbox_session_id_fkey FOREIGN KEY (session_id) REFERENCES public.study_sessions(id) ON DELETE CASCADE;


--
-- Name: lti_states lti_states_platform_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.lti_states
    ADD CONSTRAINT lti_states_platform_id_fkey FOREIGN KEY (platform_id) REFERENCES public.lti_platforms(id) ON DELETE CASCADE;


--
-- Name: mail_unsubscribes mail_unsubscribes_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.mail_unsubscribes
    ADD CONSTRAINT mail_unsubscribes_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: password_resets password_resets_issued_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.password_resets
    ADD CONSTRAINT password_resets_issued_by_fkey FOREIGN KEY (issued_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: password_resets password_resets_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.password_resets
    ADD CONSTRAINT password_resets_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: push_subscriptions push_subscriptions_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.push_subscriptions
    ADD CONSTRAINT push_subscriptions_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: question_reports question_reports_question_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.question_reports
    ADD CONSTRAINT question_reports_question_id_fkey FOREIGN KEY (question_id) REFERENCES public.questions(id);


--
-- Name: question_reports question_reports_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.question_reports
    ADD CONSTRAINT question_reports_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: question_versions question_versions_question_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.question_versions
    ADD CONSTRAINT question_versions_question_id_fkey FOREIGN KEY (question_id) REFERENCES public.questions(id) ON DELETE CASCADE;


--
-- Name: questions questions_domain_exam; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.questions
    ADD CONSTRAINT questions_domain_exam FOREIGN KEY (domain_id, exam_id) REFERENCES public.domains(id, exam_id);


--
-- Name: questions questions_domain_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.questions
    ADD CONSTRAINT questions_domain_id_fkey FOREIGN KEY (domain_id) REFERENCES public.domains(id);


--
-- Name: quiz_questions quiz_questions_question_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.quiz_questions
    ADD CONSTRAINT quiz_questions_question_id_fkey FOREIGN KEY (question_id) REFERENCES public.questions(id) ON DELETE CASCADE;


--
-- Name: quiz_questions quiz_questions_quiz_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.quiz_questions
    ADD CONSTRAINT quiz_questions_quiz_id_fkey FOREIGN KEY (quiz_id) REFERENCES public.quizzes(id) ON DELETE CASCADE;


--
-- Name: quizzes quizzes_exam_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.quizzes
    ADD CONSTRAINT quizzes_exam_id_fkey FOREIGN KEY (exam_id) REFERENCES public.exams(id) ON DELETE CASCADE;


--
-- Name: quizzes quizzes_teacher_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.quizzes
    ADD CONSTRAINT quizzes_teacher_id_fkey FOREIGN KEY (teacher_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: review_cards review_cards_question_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.review_cards
    ADD CONSTRAINT review_cards_question_id_fkey FOREIGN KEY (question_id) REFERENCES public.questions(id);


--
-- Name: review_cards review_cards_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.review_cards
    ADD CONSTRAINT review_cards_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: share_links share_links_class_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.share_links
    ADD CONSTRAINT share_links_class_id_fkey FOREIGN KEY (class_id) REFERENCES public.classes(id) ON DELETE CASCADE;


--
-- Name: share_links share_links_created_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.share_links
    ADD CONSTRAINT share_links_created_by_fkey FOREIGN KEY (created_by) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: share_links share_links_exam_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.share_links
    ADD CONSTRAINT share_links_exam_id_fkey FOREIGN KEY (exam_id) REFERENCES public.exams(id);


--
-- Name: share_links share_links_quiz_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.share_links
    ADD CONSTRAINT share_links_quiz_id_fkey FOREIGN KEY (quiz_id) REFERENCES public.quizzes(id) ON DELETE RESTRICT;


--
-- Name: sso_exchanges sso_exchanges_state_hash_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.sso_exchanges
    ADD CONSTRAINT sso_exchanges_state_hash_fkey FOREIGN KEY (state_hash) REFERENCES public.sso_states(state_hash) ON DELETE CASCADE;


--
-- Name: sso_states sso_states_link_user_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.sso_states
    ADD CONSTRAINT sso_states_link_user_fkey FOREIGN KEY (link_user) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: sso_states sso_states_provider_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.sso_states
    ADD CONSTRAINT sso_states_provider_id_fkey FOREIGN KEY (provider_id) REFERENCES public.sso_providers(id) ON DELETE CASCADE;


--
-- Name: study_holidays study_holidays_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.study_holidays
    ADD CONSTRAINT study_holidays_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: study_sessions study_sessions_exam_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.study_sessions
    ADD CONSTRAINT study_sessions_exam_id_fkey FOREIGN KEY (exam_id) REFERENCES public.exams(id);


--
-- Name: study_sessions study_sessions_share_link_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.study_sessions
    ADD CONSTRAINT study_sessions_share_link_id_fkey FOREIGN KEY (share_link_id) REFERENCES public.share_links(id);


--
-- Name: study_sessions study_sessions_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.study_sessions
    ADD CONSTRAINT study_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: teacher_invitations teacher_invitations_created_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.teacher_invitations
    ADD CONSTRAINT teacher_invitations_created_by_fkey FOREIGN KEY (created_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: teacher_requests teacher_requests_decided_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.teacher_requests
    ADD CONSTRAINT teacher_requests_decided_by_fkey FOREIGN KEY (decided_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: teacher_requests teacher_requests_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.teacher_requests
    ADD CONSTRAINT teacher_requests_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: user_emails user_emails_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.user_emails
    ADD CONSTRAINT user_emails_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: users users_made_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: portal_owner
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_made_by_fkey FOREIGN KEY (made_by) REFERENCES public.users(id) ON DELETE SET NULL;


--
-- Name: accommodations; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.accommodations ENABLE ROW LEVEL SECURITY;

--
-- Name: accommodations accommodations_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY accommodations_admin ON public.accommodations FOR SELECT TO portal_app USING ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: accommodations accommodations_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY accommodations_auth ON public.accommodations TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: accommodations accommodations_of_students; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY accommodations_of_students ON public.accommodations FOR SELECT TO portal_app USING ((student_id = ANY (( SELECT public.app_students() AS app_students)::uuid[])));


--
-- Name: accommodations accommodations_own; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY accommodations_own ON public.accommodations FOR SELECT TO portal_app USING ((student_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: answers; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.answers ENABLE ROW LEVEL SECURITY;

--
-- Name: answers answers_auth_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY answers_auth_read ON public.answers FOR SELECT TO portal_auth USING (true);


--
-- Name: answers answers_claim; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY answers_claim ON public.answers FOR UPDATE TO portal_auth USING ((user_id IS NULL)) WITH CHECK ((user_id = public.app_user_id()));


--
-- Name: answers answers_claim_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY answers_claim_read ON public.answers FOR SELECT TO portal_auth USING (((user_id IS NULL) OR (user_id = public.app_user_id())));


--
-- Name: answers answers_forget; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY answers_forget ON public.answers FOR UPDATE TO portal_auth USING (true) WITH CHECK ((user_id IS NULL));


--
-- Name: answers answers_insert; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY answers_insert ON public.answers FOR INSERT TO portal_app WITH CHECK ((NOT (user_id IS DISTINCT FROM ( SELECT public.app_user_id() AS app_user_id))));


--
-- Name: answers answers_leaderboard; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY answers_leaderboard ON public.answers FOR SELECT TO portal_leaderboard USING ((user_id IS NOT NULL));


--
-- Name: answers answers_of_students; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY answers_of_students ON public.answers FOR SELECT TO portal_app USING ((user_id = ANY (( SELECT public.app_students() AS app_students)::uuid[])));


--
-- Name: answers answers_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY answers_read ON public.answers FOR SELECT TO portal_app USING (((user_id = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text) OR ((user_id IS NULL) AND (session_id IN ( SELECT s.id
   FROM public.study_sessions s
  WHERE (s.guest_key = ( SELECT public.app_guest_key() AS app_guest_key)))))));


--
-- Name: app_secrets; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.app_secrets ENABLE ROW LEVEL SECURITY;

--
-- Name: app_secrets app_secrets_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY app_secrets_auth ON public.app_secrets TO portal_auth USING (true);


--
-- Name: audit_log; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.audit_log ENABLE ROW LEVEL SECURITY;

--
-- Name: audit_log audit_log_about_caller; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_about_caller ON public.audit_log FOR SELECT TO portal_auth USING (true);


--
-- Name: audit_log audit_log_accommodation_change; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_accommodation_change ON public.audit_log FOR INSERT TO portal_auth WITH CHECK ((action = 'accommodation.change'::text));


--
-- Name: audit_log audit_log_account_change; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_account_change ON public.audit_log FOR INSERT TO portal_auth WITH CHECK ((action = 'account.change'::text));


--
-- Name: audit_log audit_log_account_deleted; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_account_deleted ON public.audit_log FOR INSERT TO portal_auth WITH CHECK ((action = 'account.deleted'::text));


--
-- Name: audit_log audit_log_accounts_made; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_accounts_made ON public.audit_log FOR INSERT TO portal_auth WITH CHECK ((action = 'class.accounts-made'::text));


--
-- Name: audit_log audit_log_forget; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_forget ON public.audit_log FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: audit_log audit_log_owner_lti; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_owner_lti ON public.audit_log FOR INSERT TO portal_owner WITH CHECK ((action ~~ 'lti.%'::text));


--
-- Name: audit_log audit_log_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_read ON public.audit_log FOR SELECT TO portal_app USING ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: audit_log audit_log_reset_code; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_reset_code ON public.audit_log FOR INSERT TO portal_auth WITH CHECK ((action = 'account.reset-code'::text));


--
-- Name: audit_log audit_log_teacher_request; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_teacher_request ON public.audit_log FOR INSERT TO portal_auth WITH CHECK ((action = ANY (ARRAY['teacher-request.approved'::text, 'teacher-request.refused'::text, 'teacher-invitation.used'::text])));


--
-- Name: audit_log audit_log_write; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY audit_log_write ON public.audit_log FOR INSERT TO portal_app WITH CHECK (((( SELECT public.app_role() AS app_role) = 'admin'::text) AND (actor_id = ( SELECT public.app_user_id() AS app_user_id))));


--
-- Name: auth_sessions; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.auth_sessions ENABLE ROW LEVEL SECURITY;

--
-- Name: calendar_feeds; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.calendar_feeds ENABLE ROW LEVEL SECURITY;

--
-- Name: calendar_feeds calendar_feeds_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY calendar_feeds_auth ON public.calendar_feeds TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: calendar_feeds calendar_feeds_own; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY calendar_feeds_own ON public.calendar_feeds FOR SELECT TO portal_app USING ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: calendar_feeds calendar_feeds_own_end; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY calendar_feeds_own_end ON public.calendar_feeds FOR DELETE TO portal_app USING ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: class_account_batches; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.class_account_batches ENABLE ROW LEVEL SECURITY;

--
-- Name: class_account_batches class_account_batches_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY class_account_batches_auth ON public.class_account_batches TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: class_members; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.class_members ENABLE ROW LEVEL SECURITY;

--
-- Name: class_members class_members_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY class_members_auth ON public.class_members FOR SELECT TO portal_auth USING (true);


--
-- Name: class_members class_members_auth_join; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY class_members_auth_join ON public.class_members FOR INSERT TO portal_auth WITH CHECK (true);


--
-- Name: class_members class_members_auth_rejoin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY class_members_auth_rejoin ON public.class_members FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: class_members class_members_leave; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY class_members_leave ON public.class_members FOR UPDATE TO portal_app USING (((user_id = ( SELECT public.app_user_id() AS app_user_id)) AND (left_at IS NULL))) WITH CHECK (((user_id = ( SELECT public.app_user_id() AS app_user_id)) AND (left_at IS NOT NULL)));


--
-- Name: class_members class_members_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY class_members_read ON public.class_members FOR SELECT TO portal_app USING (((user_id = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text) OR (class_id = ANY (( SELECT public.app_taught_classes() AS app_taught_classes)::uuid[]))));


--
-- Name: class_members class_members_remove; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY class_members_remove ON public.class_members FOR UPDATE TO portal_app USING (((class_id = ANY (( SELECT public.app_taught_classes() AS app_taught_classes)::uuid[])) AND (left_at IS NULL))) WITH CHECK (((class_id = ANY (( SELECT public.app_taught_classes() AS app_taught_classes)::uuid[])) AND (left_at IS NOT NULL)));


--
-- Name: classes; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.classes ENABLE ROW LEVEL SECURITY;

--
-- Name: classes classes_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY classes_auth ON public.classes FOR SELECT TO portal_auth USING (true);


--
-- Name: classes classes_auth_lti; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY classes_auth_lti ON public.classes FOR INSERT TO portal_auth WITH CHECK (true);


--
-- Name: classes classes_member; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY classes_member ON public.classes FOR SELECT TO portal_app USING ((id = ANY (( SELECT public.app_member_classes() AS app_member_classes)::uuid[])));


--
-- Name: classes classes_teacher; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY classes_teacher ON public.classes TO portal_app USING (((teacher_id = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text))) WITH CHECK (((teacher_id = ( SELECT public.app_user_id() AS app_user_id)) AND (( SELECT public.app_role() AS app_role) = ANY (ARRAY['teacher'::text, 'admin'::text]))));


--
-- Name: content_images; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.content_images ENABLE ROW LEVEL SECURITY;

--
-- Name: content_images content_images_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY content_images_admin ON public.content_images FOR INSERT TO portal_app WITH CHECK ((public.app_role() = 'admin'::text));


--
-- Name: content_images content_images_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY content_images_read ON public.content_images FOR SELECT USING (true);


--
-- Name: data_exports; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.data_exports ENABLE ROW LEVEL SECURITY;

--
-- Name: data_exports data_exports_own; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY data_exports_own ON public.data_exports TO portal_app USING ((user_id = ( SELECT public.app_user_id() AS app_user_id))) WITH CHECK ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: domains; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.domains ENABLE ROW LEVEL SECURITY;

--
-- Name: domains domains_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY domains_admin ON public.domains USING ((( SELECT public.app_role() AS app_role) = 'admin'::text)) WITH CHECK ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: domains domains_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY domains_read ON public.domains FOR SELECT USING (true);


--
-- Name: email_verifications; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.email_verifications ENABLE ROW LEVEL SECURITY;

--
-- Name: email_verifications email_verifications_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY email_verifications_auth ON public.email_verifications TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: event_results; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.event_results ENABLE ROW LEVEL SECURITY;

--
-- Name: event_results event_results_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY event_results_auth ON public.event_results FOR INSERT TO portal_auth WITH CHECK (true);


--
-- Name: event_results event_results_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY event_results_read ON public.event_results FOR SELECT TO portal_app USING (true);


--
-- Name: exam_dates; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.exam_dates ENABLE ROW LEVEL SECURITY;

--
-- Name: exam_dates exam_dates_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY exam_dates_auth ON public.exam_dates TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: exam_dates exam_dates_own; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY exam_dates_own ON public.exam_dates TO portal_app USING ((user_id = ( SELECT public.app_user_id() AS app_user_id))) WITH CHECK ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: exams; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.exams ENABLE ROW LEVEL SECURITY;

--
-- Name: exams exams_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY exams_admin ON public.exams USING ((( SELECT public.app_role() AS app_role) = 'admin'::text)) WITH CHECK ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: exams exams_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY exams_read ON public.exams FOR SELECT USING ((published OR (( SELECT public.app_role() AS app_role) = 'admin'::text)));


--
-- Name: external_identities; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.external_identities ENABLE ROW LEVEL SECURITY;

--
-- Name: external_identities external_identities_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY external_identities_auth ON public.external_identities TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: external_identities external_identities_self; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY external_identities_self ON public.external_identities FOR SELECT TO portal_app USING ((user_id = public.app_user_id()));


--
-- Name: form_sends; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.form_sends ENABLE ROW LEVEL SECURITY;

--
-- Name: form_sends form_sends_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY form_sends_auth ON public.form_sends TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: fsrs_weights; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.fsrs_weights ENABLE ROW LEVEL SECURITY;

--
-- Name: fsrs_weights fsrs_weights_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY fsrs_weights_auth ON public.fsrs_weights TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: fsrs_weights fsrs_weights_own; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY fsrs_weights_own ON public.fsrs_weights TO portal_app USING ((user_id = ( SELECT public.app_user_id() AS app_user_id))) WITH CHECK ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: import_checks; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.import_checks ENABLE ROW LEVEL SECURITY;

--
-- Name: import_checks import_checks_own; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY import_checks_own ON public.import_checks TO portal_app USING (((admin_id = ( SELECT public.app_user_id() AS app_user_id)) AND (( SELECT public.app_role() AS app_role) = 'admin'::text))) WITH CHECK (((admin_id = ( SELECT public.app_user_id() AS app_user_id)) AND (( SELECT public.app_role() AS app_role) = 'admin'::text)));


--
-- Name: key_set_keys; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.key_set_keys ENABLE ROW LEVEL SECURITY;

--
-- Name: key_set_keys key_set_keys_agent; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY key_set_keys_agent ON public.key_set_keys TO portal_agent USING (true) WITH CHECK (true);


--
-- Name: key_set_keys key_set_keys_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY key_set_keys_auth ON public.key_set_keys FOR SELECT TO portal_auth USING (true);


--
-- Name: key_sets; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.key_sets ENABLE ROW LEVEL SECURITY;

--
-- Name: key_sets key_sets_agent; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY key_sets_agent ON public.key_sets TO portal_agent USING (true) WITH CHECK (true);


--
-- Name: key_sets key_sets_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY key_sets_auth ON public.key_sets TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: key_sets key_sets_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY key_sets_read ON public.key_sets FOR SELECT TO portal_app USING (true);


--
-- Name: live_answers; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.live_answers ENABLE ROW LEVEL SECURITY;

--
-- Name: live_answers live_answers_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_answers_auth ON public.live_answers FOR SELECT TO portal_auth USING (true);


--
-- Name: live_answers live_answers_insert; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_answers_insert ON public.live_answers FOR INSERT TO portal_app WITH CHECK ((EXISTS ( SELECT 1
   FROM public.live_participants p
  WHERE ((p.id = live_answers.participant_id) AND (p.event_id = live_answers.event_id) AND ((p.user_id = ( SELECT public.app_user_id() AS app_user_id)) OR (p.guest_key = ( SELECT public.app_guest_key() AS app_guest_key)))))));


--
-- Name: live_answers live_answers_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_answers_read ON public.live_answers FOR SELECT TO portal_app USING (((( SELECT public.app_role() AS app_role) = 'admin'::text) OR (event_id = ANY (( SELECT public.app_hosted_events() AS app_hosted_events)::uuid[])) OR (participant_id IN ( SELECT p.id
   FROM public.live_participants p
  WHERE ((p.user_id = ( SELECT public.app_user_id() AS app_user_id)) OR (p.guest_key = ( SELECT public.app_guest_key() AS app_guest_key)))))));


--
-- Name: live_events; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.live_events ENABLE ROW LEVEL SECURITY;

--
-- Name: live_events live_events_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_events_auth ON public.live_events FOR SELECT TO portal_auth USING (true);


--
-- Name: live_events live_events_auth_end; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_events_auth_end ON public.live_events FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: live_events live_events_create; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_events_create ON public.live_events FOR INSERT TO portal_app WITH CHECK (((host_id = ( SELECT public.app_user_id() AS app_user_id)) AND (( SELECT public.app_role() AS app_role) = ANY (ARRAY['teacher'::text, 'admin'::text]))));


--
-- Name: live_events live_events_host; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_events_host ON public.live_events FOR UPDATE TO portal_app USING (((host_id = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text))) WITH CHECK (((host_id = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text)));


--
-- Name: live_events live_events_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_events_read ON public.live_events FOR SELECT TO portal_app USING (true);


--
-- Name: live_participants; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.live_participants ENABLE ROW LEVEL SECURITY;

--
-- Name: live_participants live_participants_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_participants_auth ON public.live_participants FOR SELECT TO portal_auth USING (true);


--
-- Name: live_participants live_participants_join; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_participants_join ON public.live_participants FOR INSERT TO portal_app WITH CHECK (
CASE
    WHEN (user_id IS NULL) THEN ((( SELECT public.app_user_id() AS app_user_id) IS NULL) AND (guest_key = ( SELECT public.app_guest_key() AS app_guest_key)))
    ELSE ((user_id = ( SELECT public.app_user_id() AS app_user_id)) AND (guest_key IS NULL))
END);


--
-- Name: live_participants live_participants_purge; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_participants_purge ON public.live_participants FOR DELETE TO portal_auth USING ((guest_key IS NOT NULL));


--
-- Name: live_participants live_participants_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY live_participants_read ON public.live_participants FOR SELECT TO portal_app USING (((user_id = ( SELECT public.app_user_id() AS app_user_id)) OR (guest_key = ( SELECT public.app_guest_key() AS app_guest_key)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text) OR (event_id = ANY (( SELECT public.app_hosted_events() AS app_hosted_events)::uuid[]))));


--
-- Name: login_addresses; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.login_addresses ENABLE ROW LEVEL SECURITY;

--
-- Name: login_addresses login_addresses_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY login_addresses_auth ON public.login_addresses TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: login_attempts; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.login_attempts ENABLE ROW LEVEL SECURITY;

--
-- Name: login_attempts login_attempts_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY login_attempts_auth ON public.login_attempts TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: login_throttle; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.login_throttle ENABLE ROW LEVEL SECURITY;

--
-- Name: login_throttle login_throttle_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY login_throttle_auth ON public.login_throttle TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: lti_context_learners; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_context_learners ENABLE ROW LEVEL SECURITY;

--
-- Name: lti_context_learners lti_context_learners_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_context_learners_auth ON public.lti_context_learners TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: lti_contexts; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_contexts ENABLE ROW LEVEL SECURITY;

--
-- Name: lti_contexts lti_contexts_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_contexts_auth ON public.lti_contexts TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: lti_contexts lti_contexts_teacher; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_contexts_teacher ON public.lti_contexts FOR SELECT TO portal_app USING (((public.app_role() = 'admin'::text) OR (class_id = ANY (( SELECT public.app_taught_classes() AS app_taught_classes)::uuid[]))));


--
-- Name: lti_deep_links; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_deep_links ENABLE ROW LEVEL SECURITY;

--
-- Name: lti_deep_links lti_deep_links_add; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_deep_links_add ON public.lti_deep_links FOR INSERT TO portal_app WITH CHECK (((user_id = public.app_user_id()) AND (public.app_role() = ANY (ARRAY['teacher'::text, 'admin'::text])) AND (used_at IS NULL)));


--
-- Name: lti_deep_links lti_deep_links_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_deep_links_auth ON public.lti_deep_links TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: lti_deployments; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_deployments ENABLE ROW LEVEL SECURITY;

--
-- Name: lti_deployments lti_deployments_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_deployments_admin ON public.lti_deployments FOR INSERT TO portal_app WITH CHECK ((public.app_role() = 'admin'::text));


--
-- Name: lti_deployments lti_deployments_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_deployments_read ON public.lti_deployments FOR SELECT USING (true);


--
-- Name: lti_graded_sessions; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_graded_sessions ENABLE ROW LEVEL SECURITY;

--
-- Name: lti_graded_sessions lti_graded_sessions_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_graded_sessions_auth ON public.lti_graded_sessions FOR SELECT TO portal_auth USING (true);


--
-- Name: lti_graded_sessions lti_graded_sessions_own; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_graded_sessions_own ON public.lti_graded_sessions TO portal_app USING ((EXISTS ( SELECT 1
   FROM public.study_sessions s
  WHERE ((s.id = lti_graded_sessions.session_id) AND (s.user_id = public.app_user_id()))))) WITH CHECK (((EXISTS ( SELECT 1
   FROM public.study_sessions s
  WHERE ((s.id = lti_graded_sessions.session_id) AND (s.user_id = public.app_user_id()) AND (s.finished_at IS NULL)))) AND (EXISTS ( SELECT 1
   FROM (public.external_identities i
     JOIN public.lti_platforms p ON ((p.issuer = i.issuer)))
  WHERE ((p.id = lti_graded_sessions.platform_id) AND (i.kind = 'lti'::text) AND (i.subject = lti_graded_sessions.subject) AND (i.user_id = public.app_user_id()))))));


--
-- Name: lti_handoffs; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_handoffs ENABLE ROW LEVEL SECURITY;

--
-- Name: lti_handoffs lti_handoffs_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_handoffs_auth ON public.lti_handoffs TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: lti_platforms; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_platforms ENABLE ROW LEVEL SECURITY;

--
-- Name: lti_platforms lti_platforms_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_platforms_admin ON public.lti_platforms FOR INSERT TO portal_app WITH CHECK ((public.app_role() = 'admin'::text));


--
-- Name: lti_platforms lti_platforms_agent; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_platforms_agent ON public.lti_platforms FOR SELECT TO portal_agent USING (true);


--
-- Name: lti_platforms lti_platforms_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_platforms_read ON public.lti_platforms FOR SELECT USING (true);


--
-- Name: lti_score_outbox; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_score_outbox ENABLE ROW LEVEL SECURITY;

--
-- Name: lti_score_outbox lti_score_outbox_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_score_outbox_admin ON public.lti_score_outbox FOR SELECT TO portal_app USING ((public.app_role() = 'admin'::text));


--
-- Name: lti_score_outbox lti_score_outbox_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_score_outbox_auth ON public.lti_score_outbox TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: lti_states; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_states ENABLE ROW LEVEL SECURITY;

--
-- Name: lti_states lti_states_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY lti_states_auth ON public.lti_states TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: lti_tool_keys; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.lti_tool_keys ENABLE ROW LEVEL SECURITY;

--
-- Name: mail_outbox; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.mail_outbox ENABLE ROW LEVEL SECURITY;

--
-- Name: mail_outbox mail_outbox_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY mail_outbox_auth ON public.mail_outbox TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: mail_unsubscribes; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.mail_unsubscribes ENABLE ROW LEVEL SECURITY;

--
-- Name: mail_unsubscribes mail_unsubscribes_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY mail_unsubscribes_auth ON public.mail_unsubscribes TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: password_resets; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.password_resets ENABLE ROW LEVEL SECURITY;

--
-- Name: password_resets password_resets_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY password_resets_auth ON public.password_resets TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: push_keys; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.push_keys ENABLE ROW LEVEL SECURITY;

--
-- Name: push_keys push_keys_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY push_keys_auth ON public.push_keys TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: push_subscriptions; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.push_subscriptions ENABLE ROW LEVEL SECURITY;

--
-- Name: push_subscriptions push_subscriptions_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY push_subscriptions_auth ON public.push_subscriptions TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: push_subscriptions push_subscriptions_own; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY push_subscriptions_own ON public.push_subscriptions FOR SELECT TO portal_app USING ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: push_subscriptions push_subscriptions_own_end; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY push_subscriptions_own_end ON public.push_subscriptions FOR DELETE TO portal_app USING ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: question_reports; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.question_reports ENABLE ROW LEVEL SECURITY;

--
-- Name: question_reports question_reports_insert; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY question_reports_insert ON public.question_reports FOR INSERT TO portal_app WITH CHECK ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: question_reports question_reports_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY question_reports_read ON public.question_reports FOR SELECT TO portal_app USING (((user_id = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text)));


--
-- Name: question_reports question_reports_resolve; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY question_reports_resolve ON public.question_reports FOR UPDATE TO portal_app USING ((( SELECT public.app_role() AS app_role) = 'admin'::text)) WITH CHECK ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: question_versions; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.question_versions ENABLE ROW LEVEL SECURITY;

--
-- Name: question_versions question_versions_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY question_versions_admin ON public.question_versions FOR SELECT TO portal_app USING ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: question_versions question_versions_offline; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY question_versions_offline ON public.question_versions FOR SELECT TO portal_auth USING (true);


--
-- Name: question_versions question_versions_write; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY question_versions_write ON public.question_versions FOR INSERT TO portal_app WITH CHECK ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: questions; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.questions ENABLE ROW LEVEL SECURITY;

--
-- Name: questions questions_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY questions_admin ON public.questions USING ((( SELECT public.app_role() AS app_role) = 'admin'::text)) WITH CHECK ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: questions questions_changes; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY questions_changes ON public.questions FOR SELECT TO portal_auth USING (true);


--
-- Name: questions questions_leaderboard; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY questions_leaderboard ON public.questions FOR SELECT TO portal_leaderboard USING (true);


--
-- Name: questions questions_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY questions_read ON public.questions FOR SELECT USING ((((status = 'published'::text) AND (deleted_at IS NULL)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text)));


--
-- Name: quiz_questions; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.quiz_questions ENABLE ROW LEVEL SECURITY;

--
-- Name: quiz_questions quiz_questions_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY quiz_questions_auth ON public.quiz_questions FOR SELECT TO portal_auth USING (true);


--
-- Name: quiz_questions quiz_questions_owner; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY quiz_questions_owner ON public.quiz_questions TO portal_app USING ((quiz_id IN ( SELECT q.id
   FROM public.quizzes q
  WHERE (q.teacher_id = ( SELECT public.app_user_id() AS app_user_id))))) WITH CHECK ((quiz_id IN ( SELECT q.id
   FROM public.quizzes q
  WHERE (q.teacher_id = ( SELECT public.app_user_id() AS app_user_id)))));


--
-- Name: quizzes; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.quizzes ENABLE ROW LEVEL SECURITY;

--
-- Name: quizzes quizzes_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY quizzes_auth ON public.quizzes FOR SELECT TO portal_auth USING (true);


--
-- Name: quizzes quizzes_owner; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY quizzes_owner ON public.quizzes TO portal_app USING ((teacher_id = ( SELECT public.app_user_id() AS app_user_id))) WITH CHECK (((teacher_id = ( SELECT public.app_user_id() AS app_user_id)) AND (( SELECT public.app_role() AS app_role) = ANY (ARRAY['teacher'::text, 'admin'::text]))));


--
-- Name: rate_limits; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.rate_limits ENABLE ROW LEVEL SECURITY;

--
-- Name: rate_limits rate_limits_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY rate_limits_auth ON public.rate_limits TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: regions; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.regions ENABLE ROW LEVEL SECURITY;

--
-- Name: regions regions_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY regions_admin ON public.regions USING ((( SELECT public.app_role() AS app_role) = 'admin'::text)) WITH CHECK ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: regions regions_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY regions_read ON public.regions FOR SELECT USING (true);


--
-- Name: review_cards; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.review_cards ENABLE ROW LEVEL SECURITY;

--
-- Name: review_cards review_cards_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY review_cards_admin ON public.review_cards FOR SELECT TO portal_app USING ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: review_cards review_cards_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY review_cards_auth ON public.review_cards TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: review_cards review_cards_of_students; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY review_cards_of_students ON public.review_cards FOR SELECT TO portal_app USING ((user_id = ANY (( SELECT public.app_students() AS app_students)::uuid[])));


--
-- Name: review_cards review_cards_owner; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY review_cards_owner ON public.review_cards FOR SELECT TO portal_app USING ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: schools; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.schools ENABLE ROW LEVEL SECURITY;

--
-- Name: schools schools_create; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY schools_create ON public.schools FOR INSERT TO portal_app WITH CHECK ((( SELECT public.app_role() AS app_role) = ANY (ARRAY['teacher'::text, 'admin'::text])));


--
-- Name: schools schools_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY schools_read ON public.schools FOR SELECT TO portal_app USING (true);


--
-- Name: auth_sessions sessions_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sessions_auth ON public.auth_sessions TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: auth_sessions sessions_self; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sessions_self ON public.auth_sessions FOR SELECT TO portal_app USING (((user_id = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text)));


--
-- Name: auth_sessions sessions_self_delete; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sessions_self_delete ON public.auth_sessions FOR DELETE TO portal_app USING ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: share_links; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.share_links ENABLE ROW LEVEL SECURITY;

--
-- Name: share_links share_links_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY share_links_auth ON public.share_links FOR SELECT TO portal_auth USING (true);


--
-- Name: share_links share_links_owner; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY share_links_owner ON public.share_links TO portal_app USING (((created_by = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text))) WITH CHECK (((created_by = ( SELECT public.app_user_id() AS app_user_id)) AND (( SELECT public.app_role() AS app_role) = ANY (ARRAY['teacher'::text, 'admin'::text])) AND ((class_id IS NULL) OR (class_id = ANY (( SELECT public.app_taught_classes() AS app_taught_classes)::uuid[]))) AND ((quiz_id IS NULL) OR (EXISTS ( SELECT 1
   FROM public.quizzes z
  WHERE ((z.id = share_links.quiz_id) AND (z.teacher_id = ( SELECT public.app_user_id() AS app_user_id)) AND (z.exam_id = share_links.exam_id)))))));


--
-- Name: sso_exchanges; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.sso_exchanges ENABLE ROW LEVEL SECURITY;

--
-- Name: sso_exchanges sso_exchanges_agent; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sso_exchanges_agent ON public.sso_exchanges TO portal_agent USING (true) WITH CHECK (true);


--
-- Name: sso_exchanges sso_exchanges_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sso_exchanges_auth ON public.sso_exchanges TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: sso_providers; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.sso_providers ENABLE ROW LEVEL SECURITY;

--
-- Name: sso_providers sso_providers_admin_add; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sso_providers_admin_add ON public.sso_providers FOR INSERT TO portal_app WITH CHECK ((public.app_role() = 'admin'::text));


--
-- Name: sso_providers sso_providers_admin_change; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sso_providers_admin_change ON public.sso_providers FOR UPDATE TO portal_app USING ((public.app_role() = 'admin'::text)) WITH CHECK ((public.app_role() = 'admin'::text));


--
-- Name: sso_providers sso_providers_agent; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sso_providers_agent ON public.sso_providers FOR SELECT TO portal_agent USING (true);


--
-- Name: sso_providers sso_providers_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sso_providers_auth ON public.sso_providers FOR SELECT TO portal_auth USING (true);


--
-- Name: sso_providers sso_providers_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sso_providers_read ON public.sso_providers FOR SELECT TO portal_app USING (true);


--
-- Name: sso_states; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.sso_states ENABLE ROW LEVEL SECURITY;

--
-- Name: sso_states sso_states_agent; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sso_states_agent ON public.sso_states FOR SELECT TO portal_agent USING (true);


--
-- Name: sso_states sso_states_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY sso_states_auth ON public.sso_states TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: study_holidays; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.study_holidays ENABLE ROW LEVEL SECURITY;

--
-- Name: study_holidays study_holidays_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_holidays_auth ON public.study_holidays TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: study_holidays study_holidays_own; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_holidays_own ON public.study_holidays TO portal_app USING ((user_id = ( SELECT public.app_user_id() AS app_user_id))) WITH CHECK ((user_id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: study_sessions; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.study_sessions ENABLE ROW LEVEL SECURITY;

--
-- Name: study_sessions study_sessions_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_sessions_admin ON public.study_sessions FOR SELECT TO portal_app USING ((( SELECT public.app_role() AS app_role) = 'admin'::text));


--
-- Name: study_sessions study_sessions_auth_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_sessions_auth_read ON public.study_sessions FOR SELECT TO portal_auth USING (true);


--
-- Name: study_sessions study_sessions_claim; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_sessions_claim ON public.study_sessions FOR UPDATE TO portal_auth USING ((user_id IS NULL)) WITH CHECK (((user_id = public.app_user_id()) AND (guest_key IS NULL)));


--
-- Name: study_sessions study_sessions_claim_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_sessions_claim_read ON public.study_sessions FOR SELECT TO portal_auth USING (((user_id IS NULL) OR (user_id = public.app_user_id())));


--
-- Name: study_sessions study_sessions_finish; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_sessions_finish ON public.study_sessions FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: study_sessions study_sessions_leaderboard; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_sessions_leaderboard ON public.study_sessions FOR SELECT TO portal_leaderboard USING (((finished_at IS NOT NULL) AND (user_id IS NOT NULL)));


--
-- Name: study_sessions study_sessions_of_students; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_sessions_of_students ON public.study_sessions FOR SELECT TO portal_app USING ((user_id = ANY (( SELECT public.app_students() AS app_students)::uuid[])));


--
-- Name: study_sessions study_sessions_owner; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_sessions_owner ON public.study_sessions TO portal_app USING (((user_id = ( SELECT public.app_user_id() AS app_user_id)) OR ((user_id IS NULL) AND (guest_key = ( SELECT public.app_guest_key() AS app_guest_key))))) WITH CHECK (((user_id = ( SELECT public.app_user_id() AS app_user_id)) OR ((user_id IS NULL) AND (( SELECT public.app_user_id() AS app_user_id) IS NULL) AND (guest_key = ( SELECT public.app_guest_key() AS app_guest_key)))));


--
-- Name: study_sessions study_sessions_purge; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY study_sessions_purge ON public.study_sessions FOR DELETE TO portal_auth USING ((guest_key IS NOT NULL));


--
-- Name: teacher_invitations; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.teacher_invitations ENABLE ROW LEVEL SECURITY;

--
-- Name: teacher_invitations teacher_invitations_admin; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY teacher_invitations_admin ON public.teacher_invitations TO portal_app USING ((( SELECT public.app_role() AS app_role) = 'admin'::text)) WITH CHECK (((( SELECT public.app_role() AS app_role) = 'admin'::text) AND (created_by = ( SELECT public.app_user_id() AS app_user_id))));


--
-- Name: teacher_invitations teacher_invitations_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY teacher_invitations_auth ON public.teacher_invitations TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: teacher_requests; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.teacher_requests ENABLE ROW LEVEL SECURITY;

--
-- Name: teacher_requests teacher_requests_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY teacher_requests_auth ON public.teacher_requests TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: teacher_requests teacher_requests_read; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY teacher_requests_read ON public.teacher_requests FOR SELECT TO portal_app USING (((user_id = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text)));


--
-- Name: used_tokens; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.used_tokens ENABLE ROW LEVEL SECURITY;

--
-- Name: used_tokens used_tokens_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY used_tokens_auth ON public.used_tokens TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: user_emails; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.user_emails ENABLE ROW LEVEL SECURITY;

--
-- Name: user_emails user_emails_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY user_emails_auth ON public.user_emails TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: user_emails user_emails_own; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY user_emails_own ON public.user_emails FOR SELECT TO portal_app USING (((user_id = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text)));


--
-- Name: users; Type: ROW SECURITY; Schema: public; Owner: portal_owner
--

ALTER TABLE public.users ENABLE ROW LEVEL SECURITY;

--
-- Name: users users_auth; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY users_auth ON public.users TO portal_auth USING (true) WITH CHECK (true);


--
-- Name: users users_leaderboard; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY users_leaderboard ON public.users FOR SELECT TO portal_leaderboard USING ((show_on_leaderboard AND (disabled_at IS NULL) AND public.public_board_allowed(id, made_by)));


--
-- Name: users users_of_students; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY users_of_students ON public.users FOR SELECT TO portal_app USING ((id = ANY (( SELECT public.app_students() AS app_students)::uuid[])));


--
-- Name: users users_self; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY users_self ON public.users FOR SELECT TO portal_app USING (((id = ( SELECT public.app_user_id() AS app_user_id)) OR (( SELECT public.app_role() AS app_role) = 'admin'::text)));


--
-- Name: users users_self_update; Type: POLICY; Schema: public; Owner: portal_owner
--

CREATE POLICY users_self_update ON public.users FOR UPDATE TO portal_app USING ((id = ( SELECT public.app_user_id() AS app_user_id))) WITH CHECK ((id = ( SELECT public.app_user_id() AS app_user_id)));


--
-- Name: SCHEMA public; Type: ACL; Schema: -; Owner: pg_database_owner
--

GRANT USAGE ON SCHEMA public TO portal_app;
GRANT USAGE ON SCHEMA public TO portal_auth;
GRANT USAGE ON SCHEMA public TO portal_leaderboard;
GRANT USAGE ON SCHEMA public TO portal_agent;


--
-- Name: FUNCTION account_erase(p_user uuid, p_actor uuid, p_by text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.account_erase(p_user uuid, p_actor uuid, p_by text) FROM PUBLIC;


--
-- Name: FUNCTION admin_delete_account(p_user uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.admin_delete_account(p_user uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.admin_delete_account(p_user uuid) TO portal_app;


--
-- Name: FUNCTION admin_set_account(p_user uuid, p_role text, p_disabled boolean); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.admin_set_account(p_user uuid, p_role text, p_disabled boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.admin_set_account(p_user uuid, p_role text, p_disabled boolean) TO portal_app;


--
-- Name: FUNCTION answer_outcome(p_kind text, p_key jsonb, p_options jsonb, p_details jsonb, p_response jsonb, OUT correct boolean, OUT score double precision); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.answer_outcome(p_kind text, p_key jsonb, p_options jsonb, p_details jsonb, p_response jsonb, OUT correct boolean, OUT score double precision) TO portal_app;


--
-- Name: FUNCTION answer_seconds_typical(p_user uuid); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.answer_seconds_typical(p_user uuid) TO portal_app;
GRANT ALL ON FUNCTION public.answer_seconds_typical(p_user uuid) TO portal_auth;


--
-- Name: FUNCTION answers_admit(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.answers_admit() FROM PUBLIC;


--
-- Name: FUNCTION answers_schedule(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.answers_schedule() FROM PUBLIC;


--
-- Name: FUNCTION app_form_key(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.app_form_key() FROM PUBLIC;
GRANT ALL ON FUNCTION public.app_form_key() TO portal_app;


--
-- Name: FUNCTION app_guest_key(); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.app_guest_key() TO portal_app;


--
-- Name: FUNCTION app_role(); Type: ACL; Schema: public; Owner: portal_auth
--

GRANT ALL ON FUNCTION public.app_role() TO portal_app;


--
-- Name: FUNCTION app_user_id(); Type: ACL; Schema: public; Owner: portal_auth
--

GRANT ALL ON FUNCTION public.app_user_id() TO portal_app;


--
-- Name: FUNCTION auth_change_password(p_attempt uuid, p_proof bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_change_password(p_attempt uuid, p_proof bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_change_password(p_attempt uuid, p_proof bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text) TO portal_app;


--
-- Name: FUNCTION auth_create_user(p_username text, p_display_name text, p_password_hash text, p_role text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_create_user(p_username text, p_display_name text, p_password_hash text, p_role text) FROM PUBLIC;


--
-- Name: FUNCTION auth_delete_own_account(p_attempt uuid, p_proof bytea); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_delete_own_account(p_attempt uuid, p_proof bytea) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_delete_own_account(p_attempt uuid, p_proof bytea) TO portal_app;


--
-- Name: FUNCTION auth_deletion_confirmation(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_deletion_confirmation() FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_deletion_confirmation() TO portal_app;


--
-- Name: FUNCTION auth_issue_reset(p_user uuid, p_code_hash bytea); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_issue_reset(p_user uuid, p_code_hash bytea) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_issue_reset(p_user uuid, p_code_hash bytea) TO portal_app;


--
-- Name: FUNCTION auth_login_begin(p_username text, p_address text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_login_begin(p_username text, p_address text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_login_begin(p_username text, p_address text) TO portal_app;


--
-- Name: FUNCTION auth_login_finish(p_attempt uuid, p_proof bytea, p_token text, p_csrf text, p_user_agent text, p_address text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_login_finish(p_attempt uuid, p_proof bytea, p_token text, p_csrf text, p_user_agent text, p_address text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_login_finish(p_attempt uuid, p_proof bytea, p_token text, p_csrf text, p_user_agent text, p_address text) TO portal_app;


--
-- Name: FUNCTION auth_open_session(p_user uuid, p_token text, p_csrf text, p_user_agent text, p_at timestamp with time zone); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_open_session(p_user uuid, p_token text, p_csrf text, p_user_agent text, p_at timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION auth_proof_matches(p_encoded text, p_proof bytea); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_proof_matches(p_encoded text, p_proof bytea) FROM PUBLIC;


--
-- Name: FUNCTION auth_register(p_username text, p_display_name text, p_password_hash text, p_token text, p_csrf text, p_user_agent text, p_time_zone text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_register(p_username text, p_display_name text, p_password_hash text, p_token text, p_csrf text, p_user_agent text, p_time_zone text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_register(p_username text, p_display_name text, p_password_hash text, p_token text, p_csrf text, p_user_agent text, p_time_zone text) TO portal_app;


--
-- Name: FUNCTION auth_remove_email(p_locale text, p_subject text, p_text text, p_html text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_remove_email(p_locale text, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_remove_email(p_locale text, p_subject text, p_text text, p_html text) TO portal_app;


--
-- Name: FUNCTION auth_request_email(p_email text, p_locale text, p_subject text, p_text text, p_html text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_request_email(p_email text, p_locale text, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_request_email(p_email text, p_locale text, p_subject text, p_text text, p_html text) TO portal_app;


--
-- Name: FUNCTION auth_request_reset_mail(p_login text, p_address text, p_locale text, p_subject text, p_text text, p_html text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_request_reset_mail(p_login text, p_address text, p_locale text, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_request_reset_mail(p_login text, p_address text, p_locale text, p_subject text, p_text text, p_html text) TO portal_app;


--
-- Name: FUNCTION auth_reset_by_link(p_token text, p_new_hash text, p_session_token text, p_csrf text, p_user_agent text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_reset_by_link(p_token text, p_new_hash text, p_session_token text, p_csrf text, p_user_agent text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_reset_by_link(p_token text, p_new_hash text, p_session_token text, p_csrf text, p_user_agent text) TO portal_app;


--
-- Name: FUNCTION auth_reset_link_live(p_token text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_reset_link_live(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_reset_link_live(p_token text) TO portal_app;


--
-- Name: FUNCTION auth_reset_password(p_username text, p_code_hash bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text, p_address text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_reset_password(p_username text, p_code_hash bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text, p_address text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_reset_password(p_username text, p_code_hash bytea, p_new_hash text, p_token text, p_csrf text, p_user_agent text, p_address text) TO portal_app;


--
-- Name: FUNCTION auth_reset_wait(p_address text, p_username text, p_take boolean); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_reset_wait(p_address text, p_username text, p_take boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_reset_wait(p_address text, p_username text, p_take boolean) TO portal_app;


--
-- Name: FUNCTION auth_resolve_session(p_token text, p_now timestamp with time zone, p_idle interval, p_absolute interval); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_resolve_session(p_token text, p_now timestamp with time zone, p_idle interval, p_absolute interval) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_resolve_session(p_token text, p_now timestamp with time zone, p_idle interval, p_absolute interval) TO portal_app;


--
-- Name: FUNCTION auth_verify_email(p_token text, p_locale text, p_subject text, p_text text, p_html text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.auth_verify_email(p_token text, p_locale text, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.auth_verify_email(p_token text, p_locale text, p_subject text, p_text text, p_html text) TO portal_app;


--
-- Name: FUNCTION calendar_feed_data(p_token text, p_days integer); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.calendar_feed_data(p_token text, p_days integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.calendar_feed_data(p_token text, p_days integer) TO portal_app;


--
-- Name: FUNCTION calendar_feed_keep(p_token text, p_made_for text, p_body text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.calendar_feed_keep(p_token text, p_made_for text, p_body text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.calendar_feed_keep(p_token text, p_made_for text, p_body text) TO portal_app;


--
-- Name: FUNCTION calendar_feed_start(p_token text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.calendar_feed_start(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.calendar_feed_start(p_token text) TO portal_app;


--
-- Name: FUNCTION claim_guest_sessions(p_guest_token text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.claim_guest_sessions(p_guest_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.claim_guest_sessions(p_guest_token text) TO portal_app;


--
-- Name: FUNCTION class_account_cards(p_batch uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.class_account_cards(p_batch uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.class_account_cards(p_batch uuid) TO portal_app;


--
-- Name: FUNCTION class_by_code(p_code text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.class_by_code(p_code text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.class_by_code(p_code text) TO portal_app;


--
-- Name: FUNCTION class_version(p_class uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.class_version(p_class uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.class_version(p_class uuid) TO portal_app;


--
-- Name: FUNCTION class_version_members(p_class uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.class_version_members(p_class uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.class_version_members(p_class uuid) TO portal_app;


--
-- Name: FUNCTION cloze_text_problem(p_text text, p_details jsonb); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.cloze_text_problem(p_text text, p_details jsonb) TO portal_app;


--
-- Name: FUNCTION data_version_bump(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.data_version_bump() FROM PUBLIC;


--
-- Name: FUNCTION exam_changes(p_exam bigint, p_since timestamp with time zone); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.exam_changes(p_exam bigint, p_since timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.exam_changes(p_exam bigint, p_since timestamp with time zone) TO portal_app;


--
-- Name: FUNCTION external_account(p_kind text, p_issuer text, p_subject text, p_name text, p_fallback text, p_teacher boolean, p_at timestamp with time zone, OUT id uuid, OUT disabled boolean); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.external_account(p_kind text, p_issuer text, p_subject text, p_name text, p_fallback text, p_teacher boolean, p_at timestamp with time zone, OUT id uuid, OUT disabled boolean) FROM PUBLIC;


--
-- Name: FUNCTION finish_study_session(p_session uuid, p_at timestamp with time zone); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.finish_study_session(p_session uuid, p_at timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.finish_study_session(p_session uuid, p_at timestamp with time zone) TO portal_app;


--
-- Name: FUNCTION first_mock_items(p_exam bigint); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.first_mock_items(p_exam bigint) TO portal_app;
GRANT ALL ON FUNCTION public.first_mock_items(p_exam bigint) TO portal_auth;


--
-- Name: FUNCTION form_send_begin(p_token text, p_fresh_for interval); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.form_send_begin(p_token text, p_fresh_for interval) FROM PUBLIC;
GRANT ALL ON FUNCTION public.form_send_begin(p_token text, p_fresh_for interval) TO portal_app;


--
-- Name: FUNCTION form_send_done(p_token text, p_location text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.form_send_done(p_token text, p_location text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.form_send_done(p_token text, p_location text) TO portal_app;


--
-- Name: FUNCTION fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone) TO portal_app;


--
-- Name: FUNCTION fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone, decay double precision); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone, decay double precision) TO portal_app;


--
-- Name: FUNCTION fsrs_weights_within_bounds(weights double precision[]); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.fsrs_weights_within_bounds(weights double precision[]) TO portal_app;


--
-- Name: FUNCTION in_class(p_class uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.in_class(p_class uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.in_class(p_class uuid) TO portal_app;


--
-- Name: FUNCTION join_class(p_code text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.join_class(p_code text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.join_class(p_code text) TO portal_app;


--
-- Name: FUNCTION join_class_by_link(p_link uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.join_class_by_link(p_link uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.join_class_by_link(p_link uuid) TO portal_app;


--
-- Name: FUNCTION jwt_verified(p_token text, p_jwks_uri text, OUT outcome text, OUT claims jsonb, OUT problem text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.jwt_verified(p_token text, p_jwks_uri text, OUT outcome text, OUT claims jsonb, OUT problem text) FROM PUBLIC;


--
-- Name: FUNCTION key_set_failed(p_jwks_uri text, p_problem text); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.key_set_failed(p_jwks_uri text, p_problem text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.key_set_failed(p_jwks_uri text, p_problem text) TO portal_agent;


--
-- Name: FUNCTION key_set_store(p_jwks_uri text, p_set jsonb); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.key_set_store(p_jwks_uri text, p_set jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.key_set_store(p_jwks_uri text, p_set jsonb) TO portal_agent;


--
-- Name: FUNCTION key_set_wanted(p_jwks_uri text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.key_set_wanted(p_jwks_uri text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.key_set_wanted(p_jwks_uri text) TO portal_app;


--
-- Name: FUNCTION key_sets_due(p_limit integer); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.key_sets_due(p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.key_sets_due(p_limit integer) TO portal_agent;


--
-- Name: FUNCTION leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer); Type: ACL; Schema: public; Owner: portal_leaderboard
--

REVOKE ALL ON FUNCTION public.leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer) TO portal_app;


--
-- Name: FUNCTION leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer); Type: ACL; Schema: public; Owner: portal_leaderboard
--

REVOKE ALL ON FUNCTION public.leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer) TO portal_app;


--
-- Name: FUNCTION leaderboard_refresh(p_every interval, p_instance text); Type: ACL; Schema: public; Owner: portal_leaderboard
--

REVOKE ALL ON FUNCTION public.leaderboard_refresh(p_every interval, p_instance text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.leaderboard_refresh(p_every interval, p_instance text) TO portal_app;


--
-- Name: FUNCTION leaderboard_refreshed_at(); Type: ACL; Schema: public; Owner: portal_leaderboard
--

REVOKE ALL ON FUNCTION public.leaderboard_refreshed_at() FROM PUBLIC;
GRANT ALL ON FUNCTION public.leaderboard_refreshed_at() TO portal_app;


--
-- Name: FUNCTION leaderboard_size(p_exam bigint, p_period text); Type: ACL; Schema: public; Owner: portal_leaderboard
--

REVOKE ALL ON FUNCTION public.leaderboard_size(p_exam bigint, p_period text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.leaderboard_size(p_exam bigint, p_period text) TO portal_app;


--
-- Name: FUNCTION live_answer_run_bonus(p_run integer); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.live_answer_run_bonus(p_run integer) TO portal_app;


--
-- Name: FUNCTION live_answer_run_bonuses(p_index integer); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.live_answer_run_bonuses(p_index integer) TO portal_app;


--
-- Name: FUNCTION live_board(p_event uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.live_board(p_event uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.live_board(p_event uuid) TO portal_app;


--
-- Name: FUNCTION live_is_host(p_event uuid); Type: ACL; Schema: public; Owner: portal_auth
--

GRANT ALL ON FUNCTION public.live_is_host(p_event uuid) TO portal_app;


--
-- Name: FUNCTION live_record_results(p_event uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.live_record_results(p_event uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.live_record_results(p_event uuid) TO portal_app;


--
-- Name: FUNCTION lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) TO portal_app;
GRANT ALL ON FUNCTION public.lti_add_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) TO portal_agent;


--
-- Name: FUNCTION lti_begin_login(p_state_hash bytea, p_nonce text, p_platform bigint, p_target text, p_cookie bytea, p_agent bytea, p_storage_target text, p_client text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.lti_begin_login(p_state_hash bytea, p_nonce text, p_platform bigint, p_target text, p_cookie bytea, p_agent bytea, p_storage_target text, p_client text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_begin_login(p_state_hash bytea, p_nonce text, p_platform bigint, p_target text, p_cookie bytea, p_agent bytea, p_storage_target text, p_client text) TO portal_app;


--
-- Name: FUNCTION lti_deep_link(p_token text, p_use boolean); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.lti_deep_link(p_token text, p_use boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_deep_link(p_token text, p_use boolean) TO portal_app;


--
-- Name: FUNCTION lti_offer_handoff(p_handoff text, p_browser bytea, p_location text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.lti_offer_handoff(p_handoff text, p_browser bytea, p_location text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_offer_handoff(p_handoff text, p_browser bytea, p_location text) TO portal_app;


--
-- Name: FUNCTION lti_public_keys(); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.lti_public_keys() FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_public_keys() TO portal_app;


--
-- Name: FUNCTION lti_queue_score(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.lti_queue_score() FROM PUBLIC;


--
-- Name: FUNCTION lti_roster_joined(p_class uuid, p_subjects text[]); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.lti_roster_joined(p_class uuid, p_subjects text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_roster_joined(p_class uuid, p_subjects text[]) TO portal_app;


--
-- Name: FUNCTION lti_rotate_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.lti_rotate_key(p_kid text, p_private_pem text, p_modulus text, p_exponent text) FROM PUBLIC;


--
-- Name: FUNCTION lti_score_failed(p_session uuid, p_error text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.lti_score_failed(p_session uuid, p_error text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_score_failed(p_session uuid, p_error text) TO portal_app;


--
-- Name: FUNCTION lti_score_sent(p_session uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.lti_score_sent(p_session uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_score_sent(p_session uuid) TO portal_app;


--
-- Name: FUNCTION lti_sign_in(p_state text, p_id_token text, p_binding text, p_cookie bytea, p_agent bytea, p_session text, p_csrf text, p_user_agent text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.lti_sign_in(p_state text, p_id_token text, p_binding text, p_cookie bytea, p_agent bytea, p_session text, p_csrf text, p_user_agent text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_sign_in(p_state text, p_id_token text, p_binding text, p_cookie bytea, p_agent bytea, p_session text, p_csrf text, p_user_agent text) TO portal_app;


--
-- Name: FUNCTION lti_signing_key(OUT kid text, OUT private_pem text); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.lti_signing_key(OUT kid text, OUT private_pem text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_signing_key(OUT kid text, OUT private_pem text) TO portal_app;
GRANT ALL ON FUNCTION public.lti_signing_key(OUT kid text, OUT private_pem text) TO portal_agent;


--
-- Name: FUNCTION lti_take_due_scores(p_limit integer); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.lti_take_due_scores(p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_take_due_scores(p_limit integer) TO portal_app;


--
-- Name: FUNCTION lti_take_handoff(p_handoff text, p_browser bytea, p_token text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.lti_take_handoff(p_handoff text, p_browser bytea, p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.lti_take_handoff(p_handoff text, p_browser bytea, p_token text) TO portal_app;


--
-- Name: FUNCTION mail_digest_queue(p_user uuid, p_locale text, p_subject text, p_text text, p_html text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.mail_digest_queue(p_user uuid, p_locale text, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.mail_digest_queue(p_user uuid, p_locale text, p_subject text, p_text text, p_html text) TO portal_agent;


--
-- Name: FUNCTION mail_digests_take(p_limit integer); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.mail_digests_take(p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.mail_digests_take(p_limit integer) TO portal_agent;


--
-- Name: FUNCTION mail_failed(p_id uuid, p_error text, p_permanent boolean); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.mail_failed(p_id uuid, p_error text, p_permanent boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.mail_failed(p_id uuid, p_error text, p_permanent boolean) TO portal_agent;


--
-- Name: FUNCTION mail_outbox_summary(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.mail_outbox_summary() FROM PUBLIC;
GRANT ALL ON FUNCTION public.mail_outbox_summary() TO portal_app;


--
-- Name: FUNCTION mail_queue(p_purpose text, p_recipient text, p_name text, p_locale text, p_subject text, p_text text, p_html text, p_link_path text, p_secret text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.mail_queue(p_purpose text, p_recipient text, p_name text, p_locale text, p_subject text, p_text text, p_html text, p_link_path text, p_secret text) FROM PUBLIC;


--
-- Name: FUNCTION mail_sent(p_id uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.mail_sent(p_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.mail_sent(p_id uuid) TO portal_agent;


--
-- Name: FUNCTION mail_take_due(p_limit integer); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.mail_take_due(p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.mail_take_due(p_limit integer) TO portal_agent;


--
-- Name: FUNCTION mail_token(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.mail_token() FROM PUBLIC;


--
-- Name: FUNCTION mail_unsubscribe(p_token text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.mail_unsubscribe(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.mail_unsubscribe(p_token text) TO portal_app;


--
-- Name: FUNCTION math_node_problem(p_node jsonb, p_depth integer); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.math_node_problem(p_node jsonb, p_depth integer) TO portal_app;


--
-- Name: FUNCTION my_account_made_by_teacher(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.my_account_made_by_teacher() FROM PUBLIC;
GRANT ALL ON FUNCTION public.my_account_made_by_teacher() TO portal_app;


--
-- Name: FUNCTION my_answered_questions(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.my_answered_questions() FROM PUBLIC;
GRANT ALL ON FUNCTION public.my_answered_questions() TO portal_app;


--
-- Name: FUNCTION my_assignments(p_now timestamp with time zone); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.my_assignments(p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.my_assignments(p_now timestamp with time zone) TO portal_app;


--
-- Name: FUNCTION my_audit_entries(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.my_audit_entries() FROM PUBLIC;
GRANT ALL ON FUNCTION public.my_audit_entries() TO portal_app;


--
-- Name: FUNCTION my_public_board_allowed(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.my_public_board_allowed() FROM PUBLIC;
GRANT ALL ON FUNCTION public.my_public_board_allowed() TO portal_app;


--
-- Name: FUNCTION prune_anonymous_state(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.prune_anonymous_state() FROM PUBLIC;
GRANT ALL ON FUNCTION public.prune_anonymous_state() TO portal_app;


--
-- Name: FUNCTION public_board_allowed(p_user uuid, p_made_by uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.public_board_allowed(p_user uuid, p_made_by uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.public_board_allowed(p_user uuid, p_made_by uuid) TO portal_leaderboard;


--
-- Name: FUNCTION published_option_ids(p_questions uuid[], p_versions integer[]); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.published_option_ids(p_questions uuid[], p_versions integer[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.published_option_ids(p_questions uuid[], p_versions integer[]) TO portal_app;


--
-- Name: FUNCTION purge_expired_data(p_days integer, p_limit integer); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.purge_expired_data(p_days integer, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.purge_expired_data(p_days integer, p_limit integer) TO portal_app;


--
-- Name: FUNCTION push_gone(p_subscription uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.push_gone(p_subscription uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.push_gone(p_subscription uuid) TO portal_agent;


--
-- Name: FUNCTION push_key_store(p_pem text, p_point bytea); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.push_key_store(p_pem text, p_point bytea) FROM PUBLIC;
GRANT ALL ON FUNCTION public.push_key_store(p_pem text, p_point bytea) TO portal_agent;


--
-- Name: FUNCTION push_public_key(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.push_public_key() FROM PUBLIC;
GRANT ALL ON FUNCTION public.push_public_key() TO portal_app;
GRANT ALL ON FUNCTION public.push_public_key() TO portal_agent;


--
-- Name: FUNCTION push_reminders_take(p_limit integer); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.push_reminders_take(p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.push_reminders_take(p_limit integer) TO portal_agent;


--
-- Name: FUNCTION push_signing_key(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.push_signing_key() FROM PUBLIC;
GRANT ALL ON FUNCTION public.push_signing_key() TO portal_agent;


--
-- Name: FUNCTION push_subscribe(p_endpoint text, p_p256dh bytea, p_auth bytea); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.push_subscribe(p_endpoint text, p_p256dh bytea, p_auth bytea) FROM PUBLIC;
GRANT ALL ON FUNCTION public.push_subscribe(p_endpoint text, p_p256dh bytea, p_auth bytea) TO portal_app;


--
-- Name: FUNCTION question_facilities(p_exam integer); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.question_facilities(p_exam integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.question_facilities(p_exam integer) TO portal_app;


--
-- Name: FUNCTION question_picture_unnamed(p_options jsonb, p_rich jsonb); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.question_picture_unnamed(p_options jsonb, p_rich jsonb) TO portal_app;


--
-- Name: FUNCTION question_shape_problem(kind text, options jsonb, correct jsonb, details jsonb); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.question_shape_problem(kind text, options jsonb, correct jsonb, details jsonb) TO portal_app;


--
-- Name: FUNCTION question_texts_problem(p_rich jsonb, p_options jsonb); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.question_texts_problem(p_rich jsonb, p_options jsonb) TO portal_app;


--
-- Name: FUNCTION quiz_questions_of_link(p_link uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.quiz_questions_of_link(p_link uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.quiz_questions_of_link(p_link uuid) TO portal_app;


--
-- Name: FUNCTION rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer, p_take boolean); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer, p_take boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer, p_take boolean) TO portal_app;


--
-- Name: FUNCTION reader_changed(p_user uuid, p_announce boolean); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.reader_changed(p_user uuid, p_announce boolean) FROM PUBLIC;


--
-- Name: FUNCTION reminder_day_open(p_user uuid, p_time_zone text, p_study_time time without time zone, p_easy_days text, p_now timestamp with time zone); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.reminder_day_open(p_user uuid, p_time_zone text, p_study_time time without time zone, p_easy_days text, p_now timestamp with time zone) TO portal_auth;


--
-- Name: FUNCTION review_card_apply(p_user uuid, p_question uuid, p_rating integer, p_at timestamp with time zone); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.review_card_apply(p_user uuid, p_question uuid, p_rating integer, p_at timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION review_card_rebuild(p_user uuid, p_question uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.review_card_rebuild(p_user uuid, p_question uuid) FROM PUBLIC;


--
-- Name: FUNCTION review_cards_rebuild(p_user uuid, OUT cards integer, OUT differing integer); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.review_cards_rebuild(p_user uuid, OUT cards integer, OUT differing integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.review_cards_rebuild(p_user uuid, OUT cards integer, OUT differing integer) TO portal_app;
GRANT ALL ON FUNCTION public.review_cards_rebuild(p_user uuid, OUT cards integer, OUT differing integer) TO portal_owner;


--
-- Name: FUNCTION review_history(p_user uuid, p_question uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.review_history(p_user uuid, p_question uuid) FROM PUBLIC;


--
-- Name: FUNCTION rich_inlines_problem(p_inlines jsonb, p_depth integer); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.rich_inlines_problem(p_inlines jsonb, p_depth integer) TO portal_app;


--
-- Name: FUNCTION rich_math_problem(p_math jsonb); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.rich_math_problem(p_math jsonb) TO portal_app;


--
-- Name: FUNCTION rich_text_problem(p_blocks jsonb, p_depth integer); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.rich_text_problem(p_blocks jsonb, p_depth integer) TO portal_app;


--
-- Name: FUNCTION schema_drop_policies(p_table text); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.schema_drop_policies(p_table text) FROM PUBLIC;


--
-- Name: FUNCTION schema_drop_triggers(p_table text); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.schema_drop_triggers(p_table text) FROM PUBLIC;


--
-- Name: FUNCTION set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer, p_extra_attempts integer, p_reads_aloud boolean); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer, p_extra_attempts integer, p_reads_aloud boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION public.set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer, p_extra_attempts integer, p_reads_aloud boolean) TO portal_app;


--
-- Name: FUNCTION share_link_admits(p_link uuid, p_exam bigint, p_mode text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.share_link_admits(p_link uuid, p_exam bigint, p_mode text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.share_link_admits(p_link uuid, p_exam bigint, p_mode text) TO portal_app;


--
-- Name: FUNCTION share_link_as_shared(p_link uuid, p_now timestamp with time zone); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.share_link_as_shared(p_link uuid, p_now timestamp with time zone) FROM PUBLIC;


--
-- Name: FUNCTION share_link_attempts(p_link uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.share_link_attempts(p_link uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.share_link_attempts(p_link uuid) TO portal_app;


--
-- Name: FUNCTION share_link_by_token(p_hash bytea, p_now timestamp with time zone); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.share_link_by_token(p_hash bytea, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.share_link_by_token(p_hash bytea, p_now timestamp with time zone) TO portal_app;


--
-- Name: FUNCTION share_link_of_my_class(p_link uuid, p_now timestamp with time zone); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.share_link_of_my_class(p_link uuid, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.share_link_of_my_class(p_link uuid, p_now timestamp with time zone) TO portal_app;


--
-- Name: FUNCTION share_link_time_limit(p_link uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.share_link_time_limit(p_link uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.share_link_time_limit(p_link uuid) TO portal_app;


--
-- Name: FUNCTION sso_begin(p_state_hash bytea, p_provider bigint, p_nonce text, p_verifier text, p_browser bytea, p_linking boolean, p_return_to text, p_client text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.sso_begin(p_state_hash bytea, p_provider bigint, p_nonce text, p_verifier text, p_browser bytea, p_linking boolean, p_return_to text, p_client text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.sso_begin(p_state_hash bytea, p_provider bigint, p_nonce text, p_verifier text, p_browser bytea, p_linking boolean, p_return_to text, p_client text) TO portal_app;


--
-- Name: FUNCTION sso_callback(p_state text, p_browser bytea, p_provider bigint, p_code text, p_redirect_uri text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.sso_callback(p_state text, p_browser bytea, p_provider bigint, p_code text, p_redirect_uri text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.sso_callback(p_state text, p_browser bytea, p_provider bigint, p_code text, p_redirect_uri text) TO portal_app;


--
-- Name: FUNCTION sso_exchange_answered(p_state_hash bytea, p_id_token text, p_problem text); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.sso_exchange_answered(p_state_hash bytea, p_id_token text, p_problem text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.sso_exchange_answered(p_state_hash bytea, p_id_token text, p_problem text) TO portal_agent;


--
-- Name: FUNCTION sso_exchanges_due(p_limit integer); Type: ACL; Schema: public; Owner: portal_owner
--

REVOKE ALL ON FUNCTION public.sso_exchanges_due(p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.sso_exchanges_due(p_limit integer) TO portal_agent;


--
-- Name: FUNCTION sso_finish(p_browser bytea, p_provider bigint, p_session text, p_csrf text, p_user_agent text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.sso_finish(p_browser bytea, p_provider bigint, p_session text, p_csrf text, p_user_agent text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.sso_finish(p_browser bytea, p_provider bigint, p_session text, p_csrf text, p_user_agent text) TO portal_app;


--
-- Name: FUNCTION sso_unlink(p_issuer text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.sso_unlink(p_issuer text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.sso_unlink(p_issuer text) TO portal_app;


--
-- Name: FUNCTION study_session_set_aside(p_session uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.study_session_set_aside(p_session uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.study_session_set_aside(p_session uuid) TO portal_app;


--
-- Name: FUNCTION study_sessions_attempts(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.study_sessions_attempts() FROM PUBLIC;


--
-- Name: FUNCTION teacher_invitation_accept(p_token text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.teacher_invitation_accept(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.teacher_invitation_accept(p_token text) TO portal_app;


--
-- Name: FUNCTION teacher_invitation_look(p_token text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.teacher_invitation_look(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.teacher_invitation_look(p_token text) TO portal_app;


--
-- Name: FUNCTION teacher_make_account_batch(p_class uuid, p_people jsonb); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.teacher_make_account_batch(p_class uuid, p_people jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.teacher_make_account_batch(p_class uuid, p_people jsonb) TO portal_app;


--
-- Name: FUNCTION teacher_make_accounts(p_class uuid, p_people jsonb); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.teacher_make_accounts(p_class uuid, p_people jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.teacher_make_accounts(p_class uuid, p_people jsonb) TO portal_app;


--
-- Name: FUNCTION teacher_request_decide(p_request uuid, p_approve boolean, p_subject text, p_text text, p_html text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.teacher_request_decide(p_request uuid, p_approve boolean, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.teacher_request_decide(p_request uuid, p_approve boolean, p_subject text, p_text text, p_html text) TO portal_app;


--
-- Name: FUNCTION teacher_request_file(p_school text, p_note text); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.teacher_request_file(p_school text, p_note text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.teacher_request_file(p_school text, p_note text) TO portal_app;


--
-- Name: FUNCTION teaches(p_student uuid); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.teaches(p_student uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.teaches(p_student uuid) TO portal_app;


--
-- Name: FUNCTION typed_answer_outcome(p_rule jsonb, p_typed text, OUT correct boolean, OUT score double precision); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.typed_answer_outcome(p_rule jsonb, p_typed text, OUT correct boolean, OUT score double precision) TO portal_app;


--
-- Name: FUNCTION typed_rule_problem(p_rule jsonb, p_subject text, p_prefix text); Type: ACL; Schema: public; Owner: portal_owner
--

GRANT ALL ON FUNCTION public.typed_rule_problem(p_rule jsonb, p_subject text, p_prefix text) TO portal_app;


--
-- Name: FUNCTION users_end_sessions(); Type: ACL; Schema: public; Owner: portal_auth
--

REVOKE ALL ON FUNCTION public.users_end_sessions() FROM PUBLIC;


--
-- Name: TABLE accommodations; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.accommodations TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.accommodations TO portal_auth;


--
-- Name: TABLE answers; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.answers TO portal_app;
GRANT SELECT ON TABLE public.answers TO portal_leaderboard;
GRANT SELECT ON TABLE public.answers TO portal_auth;


--
-- Name: COLUMN answers.user_id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(user_id) ON TABLE public.answers TO portal_auth;


--
-- Name: COLUMN answers.rating; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(rating) ON TABLE public.answers TO portal_auth;


--
-- Name: COLUMN answers.answered_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(answered_at) ON TABLE public.answers TO portal_auth;


--
-- Name: TABLE app_secrets; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.app_secrets TO portal_auth;


--
-- Name: TABLE audit_log; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.audit_log TO portal_app;
GRANT SELECT,INSERT ON TABLE public.audit_log TO portal_auth;


--
-- Name: COLUMN audit_log.actor_name; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(actor_name) ON TABLE public.audit_log TO portal_auth;


--
-- Name: COLUMN audit_log.target; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(target) ON TABLE public.audit_log TO portal_auth;


--
-- Name: TABLE auth_sessions; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT DELETE ON TABLE public.auth_sessions TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.auth_sessions TO portal_auth;


--
-- Name: COLUMN auth_sessions.id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(id) ON TABLE public.auth_sessions TO portal_app;


--
-- Name: COLUMN auth_sessions.user_id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(user_id) ON TABLE public.auth_sessions TO portal_app;


--
-- Name: COLUMN auth_sessions.created_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(created_at) ON TABLE public.auth_sessions TO portal_app;


--
-- Name: COLUMN auth_sessions.last_seen_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(last_seen_at) ON TABLE public.auth_sessions TO portal_app;


--
-- Name: COLUMN auth_sessions.user_agent; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(user_agent) ON TABLE public.auth_sessions TO portal_app;


--
-- Name: TABLE calendar_feeds; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT DELETE ON TABLE public.calendar_feeds TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.calendar_feeds TO portal_auth;


--
-- Name: COLUMN calendar_feeds.user_id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(user_id) ON TABLE public.calendar_feeds TO portal_app;


--
-- Name: COLUMN calendar_feeds.created_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(created_at) ON TABLE public.calendar_feeds TO portal_app;


--
-- Name: TABLE domains; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.domains TO portal_app;
GRANT SELECT ON TABLE public.domains TO portal_leaderboard;
GRANT SELECT ON TABLE public.domains TO portal_auth;


--
-- Name: TABLE questions; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.questions TO portal_app;
GRANT SELECT ON TABLE public.questions TO portal_leaderboard;
GRANT SELECT ON TABLE public.questions TO portal_auth;


--
-- Name: TABLE review_cards; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.review_cards TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.review_cards TO portal_auth;


--
-- Name: TABLE cards_by_domain; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.cards_by_domain TO portal_app;


--
-- Name: TABLE class_account_batches; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.class_account_batches TO portal_auth;


--
-- Name: TABLE class_members; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.class_members TO portal_app;
GRANT SELECT,INSERT ON TABLE public.class_members TO portal_auth;


--
-- Name: COLUMN class_members.joined_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(joined_at) ON TABLE public.class_members TO portal_auth;


--
-- Name: COLUMN class_members.left_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(left_at) ON TABLE public.class_members TO portal_app;
GRANT UPDATE(left_at) ON TABLE public.class_members TO portal_auth;


--
-- Name: TABLE classes; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.classes TO portal_app;
GRANT SELECT,INSERT ON TABLE public.classes TO portal_auth;


--
-- Name: COLUMN classes.name; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(name) ON TABLE public.classes TO portal_app;


--
-- Name: COLUMN classes.public_boards; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(public_boards) ON TABLE public.classes TO portal_app;


--
-- Name: TABLE content_images; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.content_images TO portal_app;


--
-- Name: TABLE study_sessions; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.study_sessions TO portal_app;
GRANT SELECT ON TABLE public.study_sessions TO portal_leaderboard;
GRANT SELECT,DELETE ON TABLE public.study_sessions TO portal_auth;


--
-- Name: COLUMN study_sessions.user_id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(user_id) ON TABLE public.study_sessions TO portal_auth;


--
-- Name: COLUMN study_sessions.guest_key; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(guest_key) ON TABLE public.study_sessions TO portal_auth;


--
-- Name: COLUMN study_sessions.flagged; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(flagged) ON TABLE public.study_sessions TO portal_app;


--
-- Name: COLUMN study_sessions.finished_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(finished_at) ON TABLE public.study_sessions TO portal_auth;


--
-- Name: COLUMN study_sessions.score_correct; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(score_correct) ON TABLE public.study_sessions TO portal_auth;


--
-- Name: COLUMN study_sessions.score_percent; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(score_percent) ON TABLE public.study_sessions TO portal_auth;


--
-- Name: COLUMN study_sessions.passed; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(passed) ON TABLE public.study_sessions TO portal_auth;


--
-- Name: COLUMN study_sessions.anonymous_key; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(anonymous_key) ON TABLE public.study_sessions TO portal_auth;


--
-- Name: COLUMN study_sessions.set_aside; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(set_aside) ON TABLE public.study_sessions TO portal_auth;


--
-- Name: COLUMN study_sessions.struck; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(struck) ON TABLE public.study_sessions TO portal_app;


--
-- Name: TABLE counted_answers; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.counted_answers TO portal_app;
GRANT SELECT ON TABLE public.counted_answers TO portal_auth;


--
-- Name: TABLE data_exports; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.data_exports TO portal_app;


--
-- Name: TABLE domain_accuracy_weekly; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.domain_accuracy_weekly TO portal_app;


--
-- Name: TABLE email_verifications; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.email_verifications TO portal_auth;


--
-- Name: TABLE event_results; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.event_results TO portal_app;
GRANT INSERT ON TABLE public.event_results TO portal_auth;


--
-- Name: TABLE exam_dates; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.exam_dates TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.exam_dates TO portal_auth;


--
-- Name: TABLE exams; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.exams TO portal_app;
GRANT SELECT ON TABLE public.exams TO portal_auth;


--
-- Name: TABLE external_identities; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.external_identities TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.external_identities TO portal_auth;


--
-- Name: TABLE form_sends; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.form_sends TO portal_auth;


--
-- Name: TABLE fsrs_weights; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.fsrs_weights TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.fsrs_weights TO portal_auth;


--
-- Name: TABLE import_checks; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE ON TABLE public.import_checks TO portal_app;


--
-- Name: TABLE item_responses; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.item_responses TO portal_app;


--
-- Name: TABLE item_common_answers; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.item_common_answers TO portal_app;


--
-- Name: TABLE item_gap_statistics; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.item_gap_statistics TO portal_app;


--
-- Name: TABLE item_option_shares; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.item_option_shares TO portal_app;


--
-- Name: TABLE item_statistics; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.item_statistics TO portal_app;


--
-- Name: TABLE key_set_keys; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.key_set_keys TO portal_agent;
GRANT SELECT ON TABLE public.key_set_keys TO portal_auth;


--
-- Name: TABLE key_sets; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.key_sets TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.key_sets TO portal_agent;
GRANT SELECT,INSERT,UPDATE ON TABLE public.key_sets TO portal_auth;


--
-- Name: TABLE users; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.users TO portal_auth;


--
-- Name: COLUMN users.id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(id) ON TABLE public.users TO portal_leaderboard;
GRANT SELECT(id) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.username; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(username) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.display_name; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(display_name) ON TABLE public.users TO portal_leaderboard;
GRANT SELECT(display_name),UPDATE(display_name) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.role; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(role) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.locale; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(locale),UPDATE(locale) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.time_zone; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(time_zone),UPDATE(time_zone) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.show_on_leaderboard; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(show_on_leaderboard) ON TABLE public.users TO portal_leaderboard;
GRANT SELECT(show_on_leaderboard),UPDATE(show_on_leaderboard) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.created_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(created_at) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.disabled_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(disabled_at) ON TABLE public.users TO portal_leaderboard;
GRANT SELECT(disabled_at) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.data_version; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(data_version) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.desired_retention; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(desired_retention),UPDATE(desired_retention) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.balance_reviews; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(balance_reviews),UPDATE(balance_reviews) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.easy_days; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(easy_days),UPDATE(easy_days) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.study_time; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(study_time),UPDATE(study_time) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.digest; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(digest),UPDATE(digest) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.color_scheme; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(color_scheme),UPDATE(color_scheme) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.time_zone_confirmed; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(time_zone_confirmed),UPDATE(time_zone_confirmed) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.hides_readings; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(hides_readings),UPDATE(hides_readings) ON TABLE public.users TO portal_app;


--
-- Name: COLUMN users.reads_aloud; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(reads_aloud),UPDATE(reads_aloud) ON TABLE public.users TO portal_app;


--
-- Name: TABLE leaderboard_refreshes; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.leaderboard_refreshes TO portal_leaderboard;


--
-- Name: TABLE live_answers; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.live_answers TO portal_app;
GRANT SELECT ON TABLE public.live_answers TO portal_auth;


--
-- Name: TABLE live_events; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.live_events TO portal_app;
GRANT SELECT ON TABLE public.live_events TO portal_auth;


--
-- Name: COLUMN live_events.starts_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(starts_at) ON TABLE public.live_events TO portal_app;


--
-- Name: COLUMN live_events.ended_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(ended_at) ON TABLE public.live_events TO portal_auth;


--
-- Name: TABLE live_participants; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.live_participants TO portal_app;
GRANT SELECT,DELETE ON TABLE public.live_participants TO portal_auth;


--
-- Name: TABLE login_addresses; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.login_addresses TO portal_auth;


--
-- Name: TABLE login_attempts; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.login_attempts TO portal_auth;


--
-- Name: TABLE login_throttle; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.login_throttle TO portal_auth;


--
-- Name: TABLE lti_context_learners; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.lti_context_learners TO portal_auth;


--
-- Name: TABLE lti_contexts; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.lti_contexts TO portal_app;
GRANT SELECT,INSERT,UPDATE ON TABLE public.lti_contexts TO portal_auth;


--
-- Name: TABLE lti_deep_links; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT INSERT ON TABLE public.lti_deep_links TO portal_app;
GRANT SELECT,UPDATE ON TABLE public.lti_deep_links TO portal_auth;


--
-- Name: TABLE lti_deployments; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.lti_deployments TO portal_app;
GRANT SELECT ON TABLE public.lti_deployments TO portal_auth;


--
-- Name: TABLE lti_graded_sessions; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.lti_graded_sessions TO portal_app;
GRANT SELECT ON TABLE public.lti_graded_sessions TO portal_auth;


--
-- Name: TABLE lti_handoffs; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.lti_handoffs TO portal_auth;


--
-- Name: TABLE lti_platforms; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.lti_platforms TO portal_app;
GRANT SELECT ON TABLE public.lti_platforms TO portal_auth;


--
-- Name: COLUMN lti_platforms.id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(id) ON TABLE public.lti_platforms TO portal_agent;


--
-- Name: COLUMN lti_platforms.issuer; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(issuer) ON TABLE public.lti_platforms TO portal_agent;


--
-- Name: COLUMN lti_platforms.client_id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(client_id) ON TABLE public.lti_platforms TO portal_agent;


--
-- Name: COLUMN lti_platforms.jwks_url; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(jwks_url) ON TABLE public.lti_platforms TO portal_agent;


--
-- Name: TABLE lti_score_outbox; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.lti_score_outbox TO portal_app;
GRANT SELECT,INSERT,UPDATE ON TABLE public.lti_score_outbox TO portal_auth;


--
-- Name: TABLE lti_states; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.lti_states TO portal_auth;


--
-- Name: TABLE mail_outbox; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.mail_outbox TO portal_auth;


--
-- Name: TABLE mail_unsubscribes; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE ON TABLE public.mail_unsubscribes TO portal_auth;


--
-- Name: TABLE password_resets; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.password_resets TO portal_auth;


--
-- Name: TABLE push_keys; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.push_keys TO portal_auth;


--
-- Name: TABLE push_subscriptions; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT DELETE ON TABLE public.push_subscriptions TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.push_subscriptions TO portal_auth;


--
-- Name: COLUMN push_subscriptions.id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(id) ON TABLE public.push_subscriptions TO portal_app;


--
-- Name: COLUMN push_subscriptions.user_id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(user_id) ON TABLE public.push_subscriptions TO portal_app;


--
-- Name: COLUMN push_subscriptions.created_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(created_at) ON TABLE public.push_subscriptions TO portal_app;


--
-- Name: TABLE question_reports; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.question_reports TO portal_app;


--
-- Name: COLUMN question_reports.resolved_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(resolved_at) ON TABLE public.question_reports TO portal_app;


--
-- Name: COLUMN question_reports.resolution; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(resolution) ON TABLE public.question_reports TO portal_app;


--
-- Name: COLUMN question_reports.resolution_note; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(resolution_note) ON TABLE public.question_reports TO portal_app;


--
-- Name: TABLE question_versions; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.question_versions TO portal_app;
GRANT SELECT ON TABLE public.question_versions TO portal_auth;


--
-- Name: TABLE quiz_questions; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.quiz_questions TO portal_app;
GRANT SELECT ON TABLE public.quiz_questions TO portal_auth;


--
-- Name: TABLE quizzes; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.quizzes TO portal_app;
GRANT SELECT ON TABLE public.quizzes TO portal_auth;


--
-- Name: TABLE rate_limits; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.rate_limits TO portal_auth;


--
-- Name: TABLE regions; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,UPDATE ON TABLE public.regions TO portal_app;
GRANT SELECT ON TABLE public.regions TO portal_auth;


--
-- Name: TABLE schema_migrations; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.schema_migrations TO portal_app;


--
-- Name: TABLE schema_repeatables; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.schema_repeatables TO portal_app;


--
-- Name: TABLE schools; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.schools TO portal_app;
GRANT SELECT ON TABLE public.schools TO portal_auth;


--
-- Name: TABLE server_clock; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.server_clock TO PUBLIC;


--
-- Name: TABLE share_links; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.share_links TO portal_app;
GRANT SELECT ON TABLE public.share_links TO portal_auth;


--
-- Name: COLUMN share_links.revoked_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(revoked_at) ON TABLE public.share_links TO portal_app;


--
-- Name: TABLE sso_exchanges; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.sso_exchanges TO portal_auth;


--
-- Name: COLUMN sso_exchanges.state_hash; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(state_hash) ON TABLE public.sso_exchanges TO portal_agent;


--
-- Name: COLUMN sso_exchanges.code; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(code) ON TABLE public.sso_exchanges TO portal_agent;


--
-- Name: COLUMN sso_exchanges.redirect_uri; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(redirect_uri) ON TABLE public.sso_exchanges TO portal_agent;


--
-- Name: COLUMN sso_exchanges.requested_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(requested_at) ON TABLE public.sso_exchanges TO portal_agent;


--
-- Name: COLUMN sso_exchanges.leased_until; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(leased_until),UPDATE(leased_until) ON TABLE public.sso_exchanges TO portal_agent;


--
-- Name: COLUMN sso_exchanges.id_token; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(id_token) ON TABLE public.sso_exchanges TO portal_agent;


--
-- Name: COLUMN sso_exchanges.problem; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(problem) ON TABLE public.sso_exchanges TO portal_agent;


--
-- Name: COLUMN sso_exchanges.answered_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(answered_at),UPDATE(answered_at) ON TABLE public.sso_exchanges TO portal_agent;


--
-- Name: TABLE sso_providers; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.sso_providers TO portal_auth;


--
-- Name: COLUMN sso_providers.id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(id) ON TABLE public.sso_providers TO portal_app;
GRANT SELECT(id) ON TABLE public.sso_providers TO portal_agent;


--
-- Name: COLUMN sso_providers.issuer; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(issuer),INSERT(issuer) ON TABLE public.sso_providers TO portal_app;
GRANT SELECT(issuer) ON TABLE public.sso_providers TO portal_agent;


--
-- Name: COLUMN sso_providers.slug; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(slug),INSERT(slug),UPDATE(slug) ON TABLE public.sso_providers TO portal_app;


--
-- Name: COLUMN sso_providers.label; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(label),INSERT(label),UPDATE(label) ON TABLE public.sso_providers TO portal_app;


--
-- Name: COLUMN sso_providers.client_id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(client_id),INSERT(client_id),UPDATE(client_id) ON TABLE public.sso_providers TO portal_app;
GRANT SELECT(client_id) ON TABLE public.sso_providers TO portal_agent;


--
-- Name: COLUMN sso_providers.client_secret; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT INSERT(client_secret),UPDATE(client_secret) ON TABLE public.sso_providers TO portal_app;
GRANT SELECT(client_secret) ON TABLE public.sso_providers TO portal_agent;


--
-- Name: COLUMN sso_providers.authorization_endpoint; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(authorization_endpoint),INSERT(authorization_endpoint),UPDATE(authorization_endpoint) ON TABLE public.sso_providers TO portal_app;


--
-- Name: COLUMN sso_providers.token_endpoint; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(token_endpoint),INSERT(token_endpoint),UPDATE(token_endpoint) ON TABLE public.sso_providers TO portal_app;
GRANT SELECT(token_endpoint) ON TABLE public.sso_providers TO portal_agent;


--
-- Name: COLUMN sso_providers.jwks_uri; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(jwks_uri),INSERT(jwks_uri),UPDATE(jwks_uri) ON TABLE public.sso_providers TO portal_app;
GRANT SELECT(jwks_uri) ON TABLE public.sso_providers TO portal_agent;


--
-- Name: COLUMN sso_providers.allowed_domains; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(allowed_domains),INSERT(allowed_domains),UPDATE(allowed_domains) ON TABLE public.sso_providers TO portal_app;


--
-- Name: COLUMN sso_providers.teacher_claim; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(teacher_claim),INSERT(teacher_claim),UPDATE(teacher_claim) ON TABLE public.sso_providers TO portal_app;


--
-- Name: COLUMN sso_providers.teacher_values; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(teacher_values),INSERT(teacher_values),UPDATE(teacher_values) ON TABLE public.sso_providers TO portal_app;


--
-- Name: COLUMN sso_providers.created_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(created_at) ON TABLE public.sso_providers TO portal_app;


--
-- Name: COLUMN sso_providers.client_auth; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(client_auth),INSERT(client_auth),UPDATE(client_auth) ON TABLE public.sso_providers TO portal_app;
GRANT SELECT(client_auth) ON TABLE public.sso_providers TO portal_agent;


--
-- Name: TABLE sso_states; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.sso_states TO portal_auth;


--
-- Name: COLUMN sso_states.state_hash; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(state_hash) ON TABLE public.sso_states TO portal_agent;


--
-- Name: COLUMN sso_states.provider_id; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(provider_id) ON TABLE public.sso_states TO portal_agent;


--
-- Name: COLUMN sso_states.verifier; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT(verifier) ON TABLE public.sso_states TO portal_agent;


--
-- Name: TABLE study_days; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.study_days TO portal_app;


--
-- Name: TABLE study_holidays; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE ON TABLE public.study_holidays TO portal_app;
GRANT SELECT,DELETE ON TABLE public.study_holidays TO portal_auth;


--
-- Name: COLUMN study_holidays.moved_before; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(moved_before) ON TABLE public.study_holidays TO portal_app;


--
-- Name: COLUMN study_holidays.moved_after; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(moved_after) ON TABLE public.study_holidays TO portal_app;


--
-- Name: TABLE teacher_invitations; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT ON TABLE public.teacher_invitations TO portal_app;
GRANT SELECT,UPDATE ON TABLE public.teacher_invitations TO portal_auth;


--
-- Name: COLUMN teacher_invitations.revoked_at; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT UPDATE(revoked_at) ON TABLE public.teacher_invitations TO portal_app;


--
-- Name: TABLE teacher_requests; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.teacher_requests TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.teacher_requests TO portal_auth;


--
-- Name: TABLE used_tokens; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT,INSERT,DELETE ON TABLE public.used_tokens TO portal_auth;


--
-- Name: TABLE user_emails; Type: ACL; Schema: public; Owner: portal_owner
--

GRANT SELECT ON TABLE public.user_emails TO portal_app;
GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.user_emails TO portal_auth;


--
-- PostgreSQL database dump complete
--


