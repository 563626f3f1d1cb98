-- ---------------------------------------------------------------------------------------------
-- Whether a cloze question's text marks each of its gaps once as {#n} (ClozeText.problem, word
-- for word); NULL when it does. A mark is {# then 1 to 4 digits then }, numbered from 1.
CREATE OR REPLACE FUNCTION public.cloze_text_problem(p_text text, p_details jsonb)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
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
$function$;
GRANT EXECUTE ON FUNCTION cloze_text_problem(p_text text, p_details jsonb) TO portal_app;
