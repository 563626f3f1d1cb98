-- The name a token gives its user (`name`, else given and family names), at most 80 characters.
CREATE OR REPLACE FUNCTION public.jwt_display_name(p_claims jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT left(btrim(coalesce(
        CASE WHEN jsonb_typeof(p_claims->'name') = 'string' THEN p_claims->>'name' END,
        concat_ws(' ', CASE WHEN jsonb_typeof(p_claims->'given_name') = 'string' THEN p_claims->>'given_name' END,
                       CASE WHEN jsonb_typeof(p_claims->'family_name') = 'string' THEN p_claims->>'family_name' END))), 80)
$function$;
