-- What is wrong with a question's rich texts (QuestionTexts) given its options, or NULL: the
-- stem, the explanation, and one entry per option whose text is one paragraph at most.
CREATE OR REPLACE FUNCTION public.question_texts_problem(p_rich jsonb, p_options jsonb)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
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
$function$;
GRANT EXECUTE ON FUNCTION question_texts_problem(p_rich jsonb, p_options jsonb) TO portal_app;
