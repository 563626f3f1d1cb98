-- ---------------------------------------------------------------------------------------------
-- How typed answers are judged, a fill-in question's or one cloze gap's (QuestionValidator
-- .typedProblem, word for word): 1 to 20 accepted answers, a known way of comparing, a tolerance
-- only for numbers, partly right answers. p_subject names the question or the gap where a
-- message needs it; p_prefix goes before the others ('gap 2: ').
CREATE OR REPLACE FUNCTION public.typed_rule_problem(p_rule jsonb, p_subject text, p_prefix text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
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
$function$;
GRANT EXECUTE ON FUNCTION typed_rule_problem(p_rule jsonb, p_subject text, p_prefix text) TO portal_app;
