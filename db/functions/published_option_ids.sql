-- Earlier versions' option ids, for versions students could have practised on.
CREATE OR REPLACE FUNCTION public.published_option_ids(p_questions uuid[], p_versions integer[])
 RETURNS TABLE(question_id uuid, version integer, option_ids text[])
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT v.question_id, v.version,
           ARRAY(SELECT o.value->>'id' FROM jsonb_array_elements(v.snapshot->'options') WITH ORDINALITY AS o(value, n) ORDER BY o.n)
    FROM unnest(p_questions, p_versions) AS w(question_id, version)
    JOIN public.question_versions v ON v.question_id = w.question_id AND v.version = w.version
    WHERE v.snapshot->>'status' = 'published' AND v.snapshot->>'deletedAt' IS NULL
$function$;
ALTER FUNCTION published_option_ids(p_questions uuid[], p_versions integer[]) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION published_option_ids(p_questions uuid[], p_versions integer[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION published_option_ids(p_questions uuid[], p_versions integer[]) TO portal_app;
