-- The rated answers that shape a student's cards (of one question, or all when p_question is
-- NULL), in the order they were reviewed — across questions, since a card's due day depends on
-- what else is due (the load balancer): each practice answer when it was given; a finished mock
-- exam's final answer per question when the exam ended, in the order they were given.
CREATE OR REPLACE FUNCTION public.review_history(p_user uuid, p_question uuid)
 RETURNS TABLE (question_id uuid, rating integer, reviewed_at timestamptz)
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT a.question_id, a.rating, CASE WHEN s.mode = 'mock' THEN s.finished_at ELSE a.answered_at END AS reviewed_at
    FROM public.answers a JOIN public.study_sessions s ON s.id = a.session_id
    WHERE a.user_id = p_user AND (p_question IS NULL OR a.question_id = p_question) AND a.rating IS NOT NULL
      AND (s.mode <> 'mock'
           OR (s.finished_at IS NOT NULL
               AND a.id = (SELECT c.id FROM public.counted_answers c WHERE c.session_id = a.session_id AND c.question_id = a.question_id)))
    ORDER BY reviewed_at, a.answered_at, a.id
$function$;
REVOKE ALL ON FUNCTION review_history(p_user uuid, p_question uuid) FROM PUBLIC;
ALTER FUNCTION review_history(p_user uuid, p_question uuid) OWNER TO portal_auth;
