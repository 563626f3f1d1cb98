-- After a statement admits answers, for each student whose answers it stored, in one read: their
-- data version changes (without a notice: the portal announces answers, several to a notice),
-- and their practice answers review their cards in the order they were given (a mock exam's
-- answers do when the exam ends, in finish_study_session). A card's due day depends on the
-- student's other cards (the load balancer counts what is due each day), so cards are always
-- what their whole history replayed in order makes them: when an answer arrives older than one
-- already stored (offline, late), the student's cards are made again from that history instead,
-- once for the statement — the same result `portal rebuild-cards` gives. One answer (the
-- online case) is applied straight from the read; a batch is read again in order.
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
        SELECT n.user_id,
               count(*) FILTER (WHERE k.reviews) AS reviews,
               min(n.answered_at) FILTER (WHERE k.reviews) AS earliest,
               (array_agg(n.question_id) FILTER (WHERE k.reviews))[1] AS question_id,
               (array_agg(n.rating) FILTER (WHERE k.reviews))[1] AS rating,
               array_agg(n.id) AS ids
        FROM admitted n JOIN public.study_sessions s ON s.id = n.session_id
        -- A rated answer outside a mock exam reviews its card now.
        CROSS JOIN LATERAL (SELECT n.rating IS NOT NULL AND s.mode <> 'mock' AS reviews) AS k
        WHERE n.user_id IS NOT NULL
        GROUP BY n.user_id
    LOOP
        PERFORM public.reader_changed(student.user_id, false);
        -- Late: a scheduled answer stored before this statement is newer than the earliest of
        -- its own, or a mock exam ended after it (a statement of its own, given the statement's
        -- ids: measured cheaper than asking it of the transition table).
        IF student.reviews > 0
           AND (EXISTS (SELECT 1 FROM public.answers a
                        WHERE a.user_id = student.user_id AND a.answered_at > student.earliest AND a.rating IS NOT NULL
                          AND a.id <> ALL (student.ids))
                OR EXISTS (SELECT 1 FROM public.study_sessions s
                           WHERE s.user_id = student.user_id AND s.mode = 'mock' AND s.finished_at > student.earliest)) THEN
            PERFORM public.review_card_rebuild(student.user_id, NULL);
        ELSIF student.reviews = 1 THEN
            PERFORM public.review_card_apply(student.user_id, student.question_id, student.rating, student.earliest);
        ELSIF student.reviews > 1 THEN
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
