-- Ends the caller's session (their own, or their guest cookie's) at p_at (not before its
-- start, not after now, not after a mock exam's deadline) and stores its score, computed here
-- from the answers that count (counted_answers): right answers as a share of all its questions, unanswered ones
-- counting as wrong; passed at the exam's pass mark. A student's mock exam's final answers then
-- review their cards, at the moment the exam ended. False when it had already ended.
CREATE OR REPLACE FUNCTION public.finish_study_session(p_session uuid, p_at timestamp with time zone)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    guest bytea := public.app_guest_key();
    sess record;
    ended timestamptz;
    total integer;
    right_answers integer;
    final record;
BEGIN
    SELECT s.id, s.question_ids, s.started_at, s.deadline_at, s.mode, e.pass_mark INTO sess
    FROM public.study_sessions s JOIN public.exams e ON e.id = s.exam_id
    WHERE s.id = p_session AND s.finished_at IS NULL
      AND ((s.user_id IS NOT NULL AND s.user_id = me) OR (s.user_id IS NULL AND me IS NULL AND s.guest_key = guest))
    FOR UPDATE OF s;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    ended := least(greatest(COALESCE(p_at, now_at), sess.started_at), greatest(now_at, sess.started_at));
    IF sess.deadline_at IS NOT NULL THEN
        ended := least(ended, sess.deadline_at);
    END IF;
    total := cardinality(sess.question_ids);
    SELECT count(*) FILTER (WHERE c.correct) INTO right_answers
    FROM public.counted_answers c
    WHERE c.session_id = p_session AND c.question_id = ANY (sess.question_ids);
    UPDATE public.study_sessions
    SET finished_at = ended, score_correct = right_answers,
        score_percent = round(right_answers * 100.0 / total, 2),
        passed = total > 0 AND right_answers * 100 >= sess.pass_mark * total
    WHERE id = p_session;
    IF sess.mode = 'mock' AND me IS NOT NULL THEN
        -- In the order review_history replays them; after a card reviewed later than the exam
        -- ended (a deadline passed while the student practised), the whole history instead.
        IF EXISTS (SELECT 1 FROM public.review_cards c WHERE c.user_id = me AND c.last_review > ended) THEN
            PERFORM public.review_card_rebuild(me, NULL);
        ELSE
            FOR final IN
                SELECT f.question_id, f.rating
                FROM public.counted_answers f
                WHERE f.session_id = p_session AND f.question_id = ANY (sess.question_ids) AND f.rating IS NOT NULL
                ORDER BY f.answered_at, f.id
            LOOP
                PERFORM public.review_card_apply(me, final.question_id, final.rating, ended);
            END LOOP;
        END IF;
    END IF;
    RETURN true;
END
$function$;
ALTER FUNCTION finish_study_session(p_session uuid, p_at timestamp with time zone) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION finish_study_session(p_session uuid, p_at timestamp with time zone) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION finish_study_session(p_session uuid, p_at timestamp with time zone) TO portal_app;
