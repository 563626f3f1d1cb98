-- ---------------------------------------------------------------------------------------------
-- Checking an answer of any kind (AnswerChecker.check). A response that is not an answer at all
-- raises 22023 with the reason in brackets: (empty), (outOfRange), (duplicate), (wrongCount),
-- (wrongShape), (tooLong).
CREATE OR REPLACE FUNCTION public.answer_outcome(p_kind text, p_key jsonb, p_options jsonb, p_details jsonb, p_response jsonb, OUT correct boolean, OUT score double precision)
 RETURNS record
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
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
$function$;
GRANT EXECUTE ON FUNCTION answer_outcome(p_kind text, p_key jsonb, p_options jsonb, p_details jsonb, p_response jsonb, OUT correct boolean, OUT score double precision) TO portal_app;
