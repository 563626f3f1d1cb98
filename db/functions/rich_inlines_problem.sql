-- What is wrong with a run of a rich text's inlines (RichTextCheck, word for word), or NULL.
-- `p_depth` starts at the depth of the block the run is in, as in Swift.
CREATE OR REPLACE FUNCTION public.rich_inlines_problem(p_inlines jsonb, p_depth integer)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
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
$function$;
GRANT EXECUTE ON FUNCTION rich_inlines_problem(p_inlines jsonb, p_depth integer) TO portal_app;
