-- One rated answer applied to a student's card for a question, as every scheduling path does it
-- (an answer in practice when it is given, a mock exam's final answers when it ends, a rebuild
-- replaying the history): FSRS-6 with the student's desired retention and fitted weights; then
-- the day it is due chosen on the student's calendar (review_day_choice: spread over FSRS's fuzz
-- range by what is already due each day, kept off their days without review and their
-- holidays); and, when the student sits the question's exam on a set day, due the day before at
-- the latest while its recall by the end of that day would be under the retention
-- (ExamDayPlan.aim). An answer older than the card's last review (an offline one that arrived
-- late) makes the student's cards again from their history instead, so the cards are always
-- what the history in order makes them.
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
    today date;
    interval_days integer;
    last_day integer;
    capacities double precision[];
    dues integer[];
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_user::text || p_question::text, 0));
    -- The card (locked: a rebuild under way may be replacing it) with the student's retention,
    -- weights, calendar and exam day, in one read.
    SELECT u.desired_retention::double precision AS retention, coalesce(f.weights, public.fsrs_default_weights()) AS weights,
           u.time_zone, u.easy_days, u.balance_reviews,
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
        PERFORM public.review_card_rebuild(p_user, NULL);
        RETURN;
    END IF;
    IF card.question_id IS NULL THEN
        next := public.fsrs_review('learning', 0, NULL, NULL, NULL, p_rating, p_at, weights, retention);
    ELSE
        next := public.fsrs_review(card.state, card.step, card.stability, card.difficulty, card.last_review, p_rating, p_at, weights, retention);
    END IF;
    aimed := next.due;
    -- A review a day or more ahead goes on the student's calendar. Day 0 is the answer's own day
    -- in the student's time zone; each day's capacity comes from their easy days and holidays,
    -- and (when they spread their reviews) what is due that day from the other cards.
    IF next.state = 'review' AND next.due - p_at >= interval '1 day'
       AND (loaded.balance_reviews OR loaded.easy_days <> 'nnnnnnn'
            OR EXISTS (SELECT 1 FROM public.study_holidays h
                       WHERE h.user_id = p_user AND h.ends_on > (p_at AT TIME ZONE loaded.time_zone)::date)) THEN
        today := (p_at AT TIME ZONE loaded.time_zone)::date;
        interval_days := floor(extract(epoch FROM next.due - p_at) / 86400 + 0.5)::integer;
        -- Far enough to hold the range, a week past it, and the end of a holiday reaching beyond.
        SELECT greatest(r.upper_day + 7, coalesce(max(h.ends_on - today) + 7, 0)) INTO last_day
        FROM public.review_fuzz_range(interval_days, 36500) r
        LEFT JOIN public.study_holidays h ON h.user_id = p_user AND h.ends_on > today AND h.starts_on <= today + r.upper_day + 7
        GROUP BY r.upper_day;
        SELECT array_agg(CASE WHEN EXISTS (SELECT 1 FROM public.study_holidays h
                                           WHERE h.user_id = p_user AND today + k BETWEEN h.starts_on AND h.ends_on) THEN 0
                              ELSE CASE substr(loaded.easy_days, extract(isodow FROM today + k)::integer, 1)
                                   WHEN 'x' THEN 0 WHEN 'r' THEN 0.5 ELSE 1 END
                         END ORDER BY k),
               array_agg(coalesce(c.reviews, 0) ORDER BY k)
          INTO capacities, dues
        FROM generate_series(0, last_day) k
        LEFT JOIN (SELECT (r.due AT TIME ZONE loaded.time_zone)::date - today AS day, count(*)::integer AS reviews
                   FROM public.review_cards r
                   WHERE loaded.balance_reviews AND r.user_id = p_user AND r.question_id <> p_question
                     AND r.due >= (today::timestamp AT TIME ZONE loaded.time_zone)
                     AND r.due < ((today + last_day + 1)::timestamp AT TIME ZONE loaded.time_zone)
                   GROUP BY 1) AS c ON c.day = k;
        aimed := p_at + make_interval(secs => 86400::double precision * public.review_day_choice(
            interval_days, 36500, capacities, dues, loaded.balance_reviews, retention, next.stability, -weights[21]));
    END IF;
    IF exam_day IS NOT NULL AND p_at < exam_day - interval '1 day' AND aimed > exam_day - interval '1 day'
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
