-- ---------------------------------------------------------------------------------------------
-- A question's shape, every kind (QuestionValidator.problem, check for check, word for word).
CREATE OR REPLACE FUNCTION public.question_shape_problem(kind text, options jsonb, correct jsonb, details jsonb)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
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
$function$;
GRANT EXECUTE ON FUNCTION question_shape_problem(kind text, options jsonb, correct jsonb, details jsonb) TO portal_app;
