-- A quiz holds questions of its own exam only, and only published ones when they are added (a
-- question retired later stays listed, left out of what pupils get). As the caller: a teacher
-- sees their own quiz and the published questions.
CREATE OR REPLACE FUNCTION public.quiz_questions_check()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.question_id IS DISTINCT FROM OLD.question_id THEN
        IF NOT EXISTS (SELECT 1 FROM public.quizzes z JOIN public.domains d ON d.exam_id = z.exam_id
                       JOIN public.questions q ON q.domain_id = d.id
                       WHERE z.id = NEW.quiz_id AND q.id = NEW.question_id AND q.status = 'published' AND q.deleted_at IS NULL) THEN
            RAISE EXCEPTION 'a quiz takes published questions of its own exam' USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    RETURN NEW;
END
$function$;
