-- The questions the caller answered, each with its text as it was at the version answered
-- (question_versions keeps earlier ones, which a student cannot read): for the caller's own
-- data export, and only ever about the caller.
CREATE OR REPLACE FUNCTION public.my_answered_questions()
 RETURNS TABLE(question_id uuid, version integer, stem text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT DISTINCT a.question_id, a.question_version, coalesce(v.snapshot->>'stem', q.stem)
    FROM public.answers a
    JOIN public.questions q ON q.id = a.question_id
    LEFT JOIN public.question_versions v ON v.question_id = a.question_id AND v.version = a.question_version
    WHERE a.user_id = public.app_user_id()
$function$;
ALTER FUNCTION my_answered_questions() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION my_answered_questions() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION my_answered_questions() TO portal_app;
