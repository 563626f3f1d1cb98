-- One rated answer applied to a student's card for a question, as every scheduling path does it
-- (an answer in practice when it is given, a mock exam's final answers when it ends, a rebuild
-- replaying the history): FSRS-6 with the student's desired retention and fitted weights, and,
-- when the student sits the question's exam on a set day, due the day before at the latest
-- while its recall by the end of that day would be under the retention (ExamDayPlan.aim). An
-- answer older than the card's last review (an offline one that arrived late) rebuilds the card
-- from its history instead, so the card is always what the history in order makes it.
CREATE OR REPLACE FUNCTION public.review_card_apply(p_user uuid, p_question uuid, p_rating integer, p_at timestamptz)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    card public.review_cards;
    loaded record;
    retention double precision;
    weights double precision[];
    exam_day timestamptz;
    next record;
    aimed timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_user::text || p_question::text, 0));
    -- The card (locked: a rebuild under way may be replacing it) with the student's retention,
    -- weights and exam day, in one read.
    SELECT u.desired_retention::double precision AS retention, coalesce(f.weights, public.fsrs_default_weights()) AS weights,
           (SELECT x.sits_on::timestamp AT TIME ZONE u.time_zone FROM public.exam_dates x JOIN public.domains d ON d.exam_id = x.exam_id
            JOIN public.questions q ON q.domain_id = d.id WHERE q.id = p_question AND x.user_id = u.id) AS exam_day,
           (SELECT c FROM public.review_cards c WHERE c.user_id = p_user AND c.question_id = p_question FOR UPDATE) AS card
      INTO loaded
    FROM public.users u LEFT JOIN public.fsrs_weights f ON f.user_id = u.id WHERE u.id = p_user;
    retention := loaded.retention;
    weights := loaded.weights;
    exam_day := loaded.exam_day;
    card := loaded.card;
    IF card.question_id IS NOT NULL AND p_at < card.last_review THEN
        PERFORM public.review_card_rebuild(p_user, p_question);
        RETURN;
    END IF;
    IF card.question_id IS NULL THEN
        next := public.fsrs_review('learning', 0, NULL, NULL, NULL, p_rating, p_at, weights, retention);
    ELSE
        next := public.fsrs_review(card.state, card.step, card.stability, card.difficulty, card.last_review, p_rating, p_at, weights, retention);
    END IF;
    aimed := next.due;
    IF exam_day IS NOT NULL AND p_at < exam_day - interval '1 day' AND next.due > exam_day - interval '1 day'
       AND public.fsrs_retrievability(next.stability, p_at, exam_day + interval '1 day', weights[21]) < retention THEN
        aimed := exam_day - interval '1 day';
    END IF;
    INSERT INTO public.review_cards (user_id, question_id, state, step, stability, difficulty, due, last_review, first_review, reviews, lapses)
    VALUES (p_user, p_question, next.state, next.step, next.stability, next.difficulty, aimed, p_at, p_at, 1, 0)
    ON CONFLICT (user_id, question_id) DO UPDATE SET
        state = EXCLUDED.state, step = EXCLUDED.step, stability = EXCLUDED.stability, difficulty = EXCLUDED.difficulty, due = EXCLUDED.due,
        last_review = EXCLUDED.last_review, reviews = review_cards.reviews + 1,
        lapses = review_cards.lapses + CASE WHEN p_rating = 1 AND review_cards.state = 'review' THEN 1 ELSE 0 END;
END
$function$;
REVOKE ALL ON FUNCTION review_card_apply(p_user uuid, p_question uuid, p_rating integer, p_at timestamp with time zone) FROM PUBLIC;
ALTER FUNCTION review_card_apply(p_user uuid, p_question uuid, p_rating integer, p_at timestamp with time zone) OWNER TO portal_auth;
