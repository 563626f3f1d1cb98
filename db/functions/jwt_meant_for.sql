-- Whether verified claims are meant for `p_client`: `aud` is the client or a list holding it; a
-- list of several names the authorised party (`azp`), which must be the client too.
CREATE OR REPLACE FUNCTION public.jwt_meant_for(p_claims jsonb, p_client text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT CASE jsonb_typeof(p_claims->'aud')
        WHEN 'string' THEN p_claims->>'aud' = p_client
        WHEN 'array' THEN p_claims->'aud' @> to_jsonb(p_client)
            AND (jsonb_array_length(p_claims->'aud') = 1 OR p_claims ? 'azp')
        ELSE false END
        AND (NOT p_claims ? 'azp' OR p_claims->>'azp' = p_client)
$function$;
