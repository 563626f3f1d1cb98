-- Three more kinds of question — matching, fill-in and hotspot — through the same door as the
-- four: one shape function (question_shape_problem, now with the kind's own details) behind the
-- questions_shape_valid CHECK, and one answer_outcome that checks every kind's responses. The
-- rules and messages are QuestionEngine's (QuestionValidator, AnswerChecker), held to the same
-- fixtures (Tests/Fixtures/question-shapes.json, Tests/Fixtures/answer-checking.json).

-- What a kind needs beyond options and key: a matching question's targets, a fill-in
-- question's accepted answers, how they compare and the tolerance, a hotspot question's image.
ALTER TABLE questions ADD COLUMN details jsonb NOT NULL DEFAULT '{}'::jsonb;

-- ---------------------------------------------------------------------------------------------
-- Fill-in answers: NFC, blanks (ASCII, no-break, typographic and ideographic spaces) trimmed and
-- each inner run made one space (FillInRule.normalized).
CREATE FUNCTION fill_in_normalized(p_text text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
    SELECT regexp_replace(
        regexp_replace(normalize(p_text, NFC),
                       '^[ \t\n\r\v\f\u00a0\u2000-\u200a\u202f\u205f\u3000]+|[ \t\n\r\v\f\u00a0\u2000-\u200a\u202f\u205f\u3000]+$', '', 'g'),
        '[ \t\n\r\v\f\u00a0\u2000-\u200a\u202f\u205f\u3000]+', ' ', 'g')
$$;

-- The number a normalised answer states, or NULL: full-width digits and signs read as ASCII,
-- one decimal separator, a point or a comma (FillInRule.number).
CREATE FUNCTION fill_in_number(p_text text) RETURNS double precision
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
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
$$;

-- Whether a region's coordinates make its shape (HotspotRegion.isWellFormed), given the
-- coordinates as numbers.
CREATE FUNCTION hotspot_well_formed(p_shape text, p_coords double precision[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
    SELECT NOT EXISTS (SELECT 1 FROM unnest(p_coords) AS c WHERE c < 0 OR c > 100000 OR c = 'NaN'::double precision)
       AND CASE p_shape
           WHEN 'rect' THEN cardinality(p_coords) = 4 AND p_coords[1] < p_coords[3] AND p_coords[2] < p_coords[4]
           WHEN 'circle' THEN cardinality(p_coords) = 3 AND p_coords[3] > 0
           WHEN 'polygon' THEN cardinality(p_coords) % 2 = 0 AND cardinality(p_coords) BETWEEN 6 AND 100
           ELSE false END
$$;

-- Whether a point lies in a region (HotspotRegion.contains: edges of rectangles and circles
-- included, polygons by the even-odd rule, the same arithmetic in the same order).
CREATE FUNCTION hotspot_contains(p_region jsonb, x double precision, y double precision) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
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

-- ---------------------------------------------------------------------------------------------
-- A question's shape, every kind (QuestionValidator.problem, check for check, word for word).
CREATE FUNCTION question_shape_problem(kind text, options jsonb, correct jsonb, details jsonb) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
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
    IF kind IS NULL OR kind NOT IN ('single-choice', 'multi-choice', 'ordering', 'code-snippet', 'matching', 'fill-in', 'hotspot') THEN
        RETURN format('unknown question type %s', kind);
    END IF;
    IF details IS NULL OR jsonb_typeof(details) <> 'object' THEN
        RETURN 'the details must be an object';
    END IF;
    allowed := CASE kind WHEN 'matching' THEN ARRAY['targets'] WHEN 'fill-in' THEN ARRAY['accepted', 'match', 'tolerance']
                         WHEN 'hotspot' THEN ARRAY['imageUrl'] ELSE ARRAY[]::text[] END;
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
        IF details ? 'match' THEN
            IF jsonb_typeof(details -> 'match') <> 'string' OR NOT (details ->> 'match' IN ('exact', 'case-insensitive', 'numeric')) THEN
                RETURN 'match must be exact, case-insensitive or numeric';
            END IF;
            match_rule := details ->> 'match';
        END IF;
        IF jsonb_typeof(details -> 'accepted') IS DISTINCT FROM 'array' OR jsonb_array_length(details -> 'accepted') NOT BETWEEN 1 AND 20 THEN
            RETURN 'a fill-in question needs 1 to 20 accepted answers';
        END IF;
        FOR answer IN SELECT * FROM jsonb_array_elements(details -> 'accepted') LOOP
            IF jsonb_typeof(answer) <> 'string' THEN
                RETURN format('accepted answer %s is not text', position);
            END IF;
            normal := public.fill_in_normalized(answer #>> '{}');
            IF normal = '' THEN
                RETURN format('accepted answer %s is empty', position);
            END IF;
            IF length(normal) > 200 THEN
                RETURN format('accepted answer %s is longer than 200 characters', position);
            END IF;
            IF match_rule = 'numeric' AND public.fill_in_number(normal) IS NULL THEN
                RETURN format('accepted answer %s is not a number', position);
            END IF;
            position := position + 1;
        END LOOP;
        IF details ? 'tolerance' THEN
            IF match_rule <> 'numeric' THEN
                RETURN 'a tolerance applies only to numeric answers';
            END IF;
            IF jsonb_typeof(details -> 'tolerance') <> 'number' OR (details ->> 'tolerance')::numeric < 0 THEN
                RETURN 'the tolerance must be a number, 0 or more';
            END IF;
        END IF;
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

    IF kind IN ('single-choice', 'code-snippet') AND cardinality(answers) <> 1 THEN
        RETURN format('a %s question has exactly one correct option', kind);
    END IF;
    IF kind = 'ordering' AND cardinality(answers) <> option_count THEN
        RETURN 'an ordering key must list every option exactly once';
    END IF;
    RETURN NULL;
END
$$;

ALTER TABLE questions DROP CONSTRAINT questions_shape_valid;
ALTER TABLE questions ADD CONSTRAINT questions_shape_valid CHECK (question_shape_problem(type, options, correct, details) IS NULL);
DROP FUNCTION question_shape_problem(text, jsonb, jsonb);
GRANT EXECUTE ON FUNCTION question_shape_problem(text, jsonb, jsonb, jsonb) TO portal_app;

-- A version is bumped, and kept, when the details change too.
CREATE OR REPLACE FUNCTION questions_bump_version() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF (NEW.type, NEW.stem, NEW.code, NEW.code_language, NEW.options, NEW.correct, NEW.details, NEW.explanation,
        NEW.difficulty, NEW.status, NEW.deleted_at, NEW.domain_id, NEW.exam_only)
       IS DISTINCT FROM
       (OLD.type, OLD.stem, OLD.code, OLD.code_language, OLD.options, OLD.correct, OLD.details, OLD.explanation,
        OLD.difficulty, OLD.status, OLD.deleted_at, OLD.domain_id, OLD.exam_only) THEN
        NEW.version := OLD.version + 1;
        NEW.updated_at := now();
    END IF;
    RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION questions_keep_version() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version THEN
        INSERT INTO public.question_versions (question_id, version, snapshot)
        VALUES (NEW.id, NEW.version, jsonb_build_object(
            'type', NEW.type, 'stem', NEW.stem, 'code', NEW.code, 'codeLanguage', NEW.code_language, 'options', NEW.options,
            'correct', NEW.correct, 'details', NEW.details, 'explanation', NEW.explanation, 'difficulty', NEW.difficulty,
            'status', NEW.status, 'deletedAt', NEW.deleted_at, 'examOnly', NEW.exam_only))
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;

-- ---------------------------------------------------------------------------------------------
-- Responses are stored in one of the tagged shapes (AnswerResponse): a list of option indexes
-- (every answer stored before these kinds has that shape), {"pairs": […]}, {"text": "…"} or
-- {"point": [x, y]}.
CREATE FUNCTION response_shape_ok(p_response jsonb) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
    SELECT CASE jsonb_typeof(p_response)
        WHEN 'array' THEN NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_response) AS v WHERE jsonb_typeof(v) <> 'number')
        WHEN 'object' THEN (SELECT count(*) FROM jsonb_object_keys(p_response)) = 1 AND (
            (jsonb_typeof(p_response -> 'pairs') = 'array'
             AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_response -> 'pairs') AS v WHERE jsonb_typeof(v) <> 'number'))
            OR jsonb_typeof(p_response -> 'text') = 'string'
            OR (jsonb_typeof(p_response -> 'point') = 'array' AND jsonb_array_length(p_response -> 'point') = 2
                AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_response -> 'point') AS v WHERE jsonb_typeof(v) <> 'number')))
        ELSE false END
$$;

ALTER TABLE answers DROP CONSTRAINT answers_response_check;
ALTER TABLE answers ADD CONSTRAINT answers_response_shape CHECK (public.response_shape_ok(response));
ALTER TABLE live_answers DROP CONSTRAINT live_answers_response_check;
ALTER TABLE live_answers ADD CONSTRAINT live_answers_response_shape CHECK (public.response_shape_ok(response));

-- ---------------------------------------------------------------------------------------------
-- Checking an answer of any kind (AnswerChecker.check). A response that is not an answer at all
-- raises 22023 with the reason in brackets: (empty), (outOfRange), (duplicate), (wrongCount),
-- (wrongShape), (tooLong).
CREATE FUNCTION answer_outcome(p_kind text, p_key jsonb, p_options jsonb, p_details jsonb, p_response jsonb,
                               OUT correct boolean, OUT score double precision)
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
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
    typed_number double precision;
    rule text;
    tolerance double precision;
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
        correct := picks[1] = answer_key[1];
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
        rule := coalesce(p_details ->> 'match', 'exact');
        tolerance := coalesce((p_details ->> 'tolerance')::double precision, 0);
        IF rule = 'exact' THEN
            correct := EXISTS (SELECT 1 FROM jsonb_array_elements_text(p_details -> 'accepted') AS a WHERE public.fill_in_normalized(a) = typed);
        ELSIF rule = 'case-insensitive' THEN
            correct := EXISTS (SELECT 1 FROM jsonb_array_elements_text(p_details -> 'accepted') AS a
                               WHERE lower(public.fill_in_normalized(a) COLLATE "und-x-icu") = lower(typed COLLATE "und-x-icu"));
        ELSE
            typed_number := public.fill_in_number(typed);
            correct := typed_number IS NOT NULL AND EXISTS (
                SELECT 1 FROM jsonb_array_elements_text(p_details -> 'accepted') AS a
                WHERE abs(typed_number - public.fill_in_number(public.fill_in_normalized(a))) <= tolerance);
        END IF;
        score := CASE WHEN correct THEN 1 ELSE 0 END;
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
GRANT EXECUTE ON FUNCTION answer_outcome(text, jsonb, jsonb, jsonb, jsonb) TO portal_app;

-- The admission checks, calling the one answer_outcome with the question's options and details.
-- An answer made on an earlier published version (offline) has its option indexes mapped onto
-- today's options by id; a matching answer is taken only when the prompts are as they were, and
-- typed answers and points need no mapping.
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
    SELECT q.type, q.options, q.correct, q.details, q.version, q.difficulty INTO question FROM public.questions q
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
        IF jsonb_typeof(NEW.response) = 'array' THEN
            IF EXISTS (
                SELECT 1 FROM jsonb_array_elements(NEW.response) AS r(v)
                WHERE jsonb_typeof(r.v) <> 'number' OR (r.v #>> '{}')::numeric <> trunc((r.v #>> '{}')::numeric)
                   OR (r.v #>> '{}')::numeric < 0 OR (r.v #>> '{}')::numeric >= cardinality(earlier)
                   OR array_position(current_ids, earlier[(r.v #>> '{}')::integer + 1]) IS NULL) THEN
                RAISE EXCEPTION 'the question has changed since it was answered: a chosen option is gone' USING ERRCODE = 'check_violation';
            END IF;
            SELECT coalesce(jsonb_agg(array_position(current_ids, earlier[(r.v #>> '{}')::integer + 1]) - 1 ORDER BY r.n), '[]'::jsonb) INTO response
            FROM jsonb_array_elements(NEW.response) WITH ORDINALITY AS r(v, n);
        ELSIF jsonb_typeof(NEW.response -> 'pairs') = 'array' AND earlier IS DISTINCT FROM current_ids THEN
            RAISE EXCEPTION 'the question has changed since it was answered: its options are not the same' USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    SELECT * INTO outcome FROM public.answer_outcome(question.type, question.correct, question.options, question.details, response);
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

CREATE OR REPLACE FUNCTION live_answers_admit() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
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
        RAISE EXCEPTION 'that question is not open' USING ERRCODE = 'check_violation';
    END IF;
    opened := ev.starts_at + make_interval(secs => NEW.question_index * (ev.seconds_per_question + ev.pause_seconds));
    -- A second of grace for the trip from the server's clock to here.
    IF now_at < opened OR now_at > opened + make_interval(secs => ev.seconds_per_question + 1) THEN
        RAISE EXCEPTION 'that question is not open' USING ERRCODE = 'check_violation';
    END IF;
    SELECT q.type, q.options, q.correct, q.details, q.version INTO question FROM public.questions q WHERE q.id = NEW.question_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the question is no longer published' USING ERRCODE = 'check_violation';
    END IF;
    SELECT * INTO outcome FROM public.answer_outcome(question.type, question.correct, question.options, question.details, NEW.response);
    NEW.correct := outcome.correct;
    NEW.question_version := question.version;
    NEW.time_ms := least(greatest(0, floor(extract(epoch FROM now_at - opened) * 1000)), ev.seconds_per_question * 1000)::integer;
    -- 1000 × (1 − (t/L)/2) in whole numbers, halves up: LiveScoring.points to the point.
    limit_ms := ev.seconds_per_question * 1000;
    NEW.base_points := CASE WHEN NEW.correct THEN (2000 * limit_ms - 1000 * NEW.time_ms + limit_ms) / (2 * limit_ms) ELSE 0 END;
    NEW.answered_at := now_at;
    RETURN NEW;
END
$$;

DROP FUNCTION answer_outcome(text, jsonb, integer, jsonb);

-- ---------------------------------------------------------------------------------------------
-- Item statistics per kind: option shares for the kinds whose answers pick options (a hotspot's
-- click counts for the region it fell in), and for fill-in the wrong answers typed most.
CREATE OR REPLACE VIEW item_option_shares WITH (security_invoker = true) AS
WITH picks AS (
    SELECT r.question_id, (pick.value)::integer AS option_index
    FROM item_responses r
    JOIN questions q ON q.id = r.question_id AND q.type IN ('single-choice', 'multi-choice', 'code-snippet', 'hotspot')
    CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(r.response) = 'array' THEN r.response ELSE '[]'::jsonb END) AS pick(value)
    UNION ALL
    SELECT r.question_id, (SELECT (o.n - 1)::integer FROM jsonb_array_elements(q.options) WITH ORDINALITY AS o(value, n)
                           WHERE public.hotspot_contains(o.value -> 'region', (r.response -> 'point' ->> 0)::double precision,
                                                         (r.response -> 'point' ->> 1)::double precision)
                           ORDER BY o.n LIMIT 1)
    FROM item_responses r JOIN questions q ON q.id = r.question_id AND q.type = 'hotspot'
    WHERE jsonb_typeof(r.response -> 'point') = 'array'
)
SELECT p.question_id, p.option_index, count(*) AS picks,
       count(*)::double precision / (SELECT count(*) FROM item_responses t WHERE t.question_id = p.question_id) AS share
FROM picks p WHERE p.option_index IS NOT NULL
GROUP BY p.question_id, p.option_index;

CREATE VIEW item_common_answers WITH (security_invoker = true) AS
SELECT r.question_id, public.fill_in_normalized(r.response ->> 'text') AS answer, count(*) AS times,
       count(*)::double precision / (SELECT count(*) FROM item_responses t WHERE t.question_id = r.question_id) AS share
FROM item_responses r
WHERE NOT r.correct AND jsonb_typeof(r.response -> 'text') = 'string'
GROUP BY r.question_id, public.fill_in_normalized(r.response ->> 'text');
GRANT SELECT ON item_common_answers TO portal_app;
