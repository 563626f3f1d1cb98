-- What is wrong with a formula's MathML (MathNode.problem, word for word), or NULL: MathML
-- Core's elements only, the converter's attributes with their values, 64 levels at most.
CREATE OR REPLACE FUNCTION public.math_node_problem(p_node jsonb, p_depth integer DEFAULT 0)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
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
$function$;
GRANT EXECUTE ON FUNCTION math_node_problem(p_node jsonb, p_depth integer) TO portal_app;
