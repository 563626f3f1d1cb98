-- After a statement admits answers: each student's practice answers review their cards, in the
-- order they were given (a mock exam's answers do when the exam ends, in finish_study_session).
-- A card's due day depends on the student's other cards (the load balancer counts what is due
-- each day), so cards are always what their whole history replayed in order makes them: when an
-- answer arrives older than one already stored (offline, late), the student's cards are made
-- again from that history instead, once for the statement — the same result `portal
-- rebuild-cards` gives.
CREATE OR REPLACE FUNCTION public.answers_schedule()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    student record;
    answer record;
BEGIN
    FOR student IN
        SELECT n.user_id, min(n.answered_at) AS earliest
        FROM admitted n JOIN public.study_sessions s ON s.id = n.session_id
        WHERE n.user_id IS NOT NULL AND n.rating IS NOT NULL AND s.mode <> 'mock'
        GROUP BY n.user_id
    LOOP
        IF EXISTS (SELECT 1 FROM public.answers a
                   WHERE a.user_id = student.user_id AND a.answered_at > student.earliest AND a.rating IS NOT NULL
                     AND a.id NOT IN (SELECT n.id FROM admitted n))
           OR EXISTS (SELECT 1 FROM public.study_sessions s
                      WHERE s.user_id = student.user_id AND s.mode = 'mock' AND s.finished_at > student.earliest) THEN
            PERFORM public.review_card_rebuild(student.user_id, NULL);
        ELSE
            FOR answer IN
                SELECT n.question_id, n.rating, n.answered_at
                FROM admitted n JOIN public.study_sessions s ON s.id = n.session_id
                WHERE n.user_id = student.user_id AND n.rating IS NOT NULL AND s.mode <> 'mock'
                ORDER BY n.answered_at, n.id
            LOOP
                PERFORM public.review_card_apply(student.user_id, answer.question_id, answer.rating, answer.answered_at);
            END LOOP;
        END IF;
    END LOOP;
    RETURN NULL;
END
$function$;
ALTER FUNCTION answers_schedule() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION answers_schedule() FROM PUBLIC;
