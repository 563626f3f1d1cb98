-- ---------------------------------------------------------------------------------------------
-- Responses are stored in one of the tagged shapes (AnswerResponse): a list of option indexes
-- (every answer stored before these kinds has that shape), {"pairs": […]}, {"text": "…"} or
-- {"point": [x, y]}.
CREATE OR REPLACE FUNCTION public.response_shape_ok(p_response jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
BEGIN
    -- PL/pgSQL keeps the expression's plan for the connection; as SQL (with its search path
    -- fixed, so never inlined) it was parsed again for every answer stored.
    RETURN CASE jsonb_typeof(p_response)
        WHEN 'array' THEN NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_response) AS v WHERE jsonb_typeof(v) <> 'number')
        WHEN 'object' THEN (SELECT count(*) FROM jsonb_object_keys(p_response)) = 1 AND (
            (jsonb_typeof(p_response -> 'pairs') = 'array'
             AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_response -> 'pairs') AS v WHERE jsonb_typeof(v) <> 'number'))
            OR jsonb_typeof(p_response -> 'text') = 'string'
            OR (jsonb_typeof(p_response -> 'point') = 'array' AND jsonb_array_length(p_response -> 'point') = 2
                AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(p_response -> 'point') AS v WHERE jsonb_typeof(v) <> 'number')))
        ELSE false END;
END
$function$;
