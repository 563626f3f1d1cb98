-- After an answer is admitted: a practice answer of a student reviews its card at once (a mock
-- exam's answers do when the exam ends, in finish_study_session).
CREATE OR REPLACE FUNCTION public.answers_schedule()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF NEW.user_id IS NOT NULL AND NEW.rating IS NOT NULL
       AND (SELECT s.mode FROM public.study_sessions s WHERE s.id = NEW.session_id) <> 'mock' THEN
        PERFORM public.review_card_apply(NEW.user_id, NEW.question_id, NEW.rating, NEW.answered_at);
    END IF;
    RETURN NULL;
END
$function$;
ALTER FUNCTION answers_schedule() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION answers_schedule() FROM PUBLIC;
