-- How often an exam's published questions are answered right in students' first whole mocks (the
-- item statistics' facility, read from that exam's mocks only: first_mock_items), for a teacher
-- choosing a quiz's questions. A teacher cannot read other students' sessions, so this reads
-- them for them and returns only the share: a question answered in fewer than ten such mocks has
-- none (too few to say, and too few not to reveal who).
CREATE OR REPLACE FUNCTION public.question_facilities(p_exam integer)
 RETURNS TABLE(question_id uuid, attempts bigint, facility double precision)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT i.question_id, count(*), avg(i.correct::integer)::double precision
    FROM public.first_mock_items(p_exam) i JOIN public.questions q ON q.id = i.question_id
    WHERE q.status = 'published' AND q.deleted_at IS NULL AND public.app_role() IN ('teacher', 'admin')
    GROUP BY i.question_id HAVING count(*) >= 10
$function$;
ALTER FUNCTION question_facilities(p_exam integer) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION question_facilities(p_exam integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION question_facilities(p_exam integer) TO portal_app;
