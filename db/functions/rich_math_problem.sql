-- What is wrong with a formula of a rich text (RichTextCheck's check of a Math), or NULL.
CREATE OR REPLACE FUNCTION public.rich_math_problem(p_math jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT CASE
        WHEN jsonb_typeof(p_math -> 'tex') IS DISTINCT FROM 'string' THEN 'a formula must have its TeX'
        WHEN octet_length(p_math ->> 'tex') > 4096 THEN 'a formula is longer than 4 KB'
        WHEN p_math #>> '{mathml,name}' IS DISTINCT FROM 'mrow' OR p_math -> 'mathml' ? 'text' THEN 'a formula must be an mrow'
        ELSE public.math_node_problem(p_math -> 'mathml') END
$function$;
GRANT EXECUTE ON FUNCTION rich_math_problem(p_math jsonb) TO portal_app;
