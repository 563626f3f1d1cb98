-- What is wrong with a rich text's blocks (RichTextCheck and RichText's decoding, rule for
-- rule and word for word; Tests/Fixtures/rich-text-shapes.json holds both to it), or NULL.
-- Recursion is bounded by the depth rules before it goes deeper.
CREATE OR REPLACE FUNCTION public.rich_text_problem(p_blocks jsonb, p_depth integer DEFAULT 0)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
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
$function$;
GRANT EXECUTE ON FUNCTION rich_text_problem(p_blocks jsonb, p_depth integer) TO portal_app;
