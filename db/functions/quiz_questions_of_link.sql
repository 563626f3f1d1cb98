-- The questions a quiz assignment gives, in the quiz's order: those still published (a question
-- retired since is left out). For the link's own teacher, or a pupil of its class now; nothing
-- for anyone else, or a link without a quiz.
CREATE OR REPLACE FUNCTION public.quiz_questions_of_link(p_link uuid)
 RETURNS TABLE(question_id uuid)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT qq.question_id
    FROM public.share_links l JOIN public.quiz_questions qq ON qq.quiz_id = l.quiz_id
    JOIN public.questions q ON q.id = qq.question_id
    WHERE l.id = p_link AND q.status = 'published' AND q.deleted_at IS NULL
      AND (l.created_by = public.app_user_id()
           OR EXISTS (SELECT 1 FROM public.class_members m
                      WHERE m.class_id = l.class_id AND m.user_id = public.app_user_id() AND m.left_at IS NULL))
    ORDER BY qq.position, qq.question_id
$function$;
ALTER FUNCTION quiz_questions_of_link(p_link uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION quiz_questions_of_link(p_link uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION quiz_questions_of_link(p_link uuid) TO portal_app;
