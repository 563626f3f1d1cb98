-- The questions of first whole mocks, one row each with the answer that counted: each student's
-- first whole mock of an exam (a shorter one a student chose, or one they ended by starting
-- another, does not count; a deleted account's included: its sessions share one anonymous key),
-- every question it asked (one unanswered is not right). Of one exam (p_exam), or of every exam
-- (NULL). Item statistics read it for every exam (the view item_responses), a teacher's search
-- by facility for one (question_facilities). No SET clause and every name qualified: the planner
-- inlines it, so one exam's call reads that exam's sessions only.
CREATE OR REPLACE FUNCTION public.first_mock_items(p_exam bigint)
 RETURNS TABLE(session_id uuid, exam_id bigint, question_id uuid, correct boolean, response jsonb, time_ms integer)
 LANGUAGE sql
 STABLE
AS $function$
    WITH first_attempts AS (
        SELECT DISTINCT ON (coalesce(s.user_id, s.anonymous_key), s.exam_id) s.id, s.exam_id, s.question_ids
        FROM public.study_sessions s
        WHERE s.mode = 'mock' AND s.finished_at IS NOT NULL AND (s.user_id IS NOT NULL OR s.anonymous_key IS NOT NULL)
          AND coalesce(s.config->>'length', 'full') = 'full' AND NOT s.set_aside AND (p_exam IS NULL OR s.exam_id = p_exam)
        ORDER BY coalesce(s.user_id, s.anonymous_key), s.exam_id, s.started_at, s.id
    ), final_answers AS (
        SELECT c.session_id, c.question_id, c.correct, c.response, c.time_ms
        FROM public.counted_answers c JOIN first_attempts f ON f.id = c.session_id
    )
    SELECT f.id, f.exam_id, item.question_id, coalesce(x.correct, false), x.response, x.time_ms
    FROM first_attempts f CROSS JOIN LATERAL unnest(f.question_ids) AS item(question_id)
    LEFT JOIN final_answers x ON x.session_id = f.id AND x.question_id = item.question_id
$function$;
GRANT EXECUTE ON FUNCTION first_mock_items(p_exam bigint) TO portal_app, portal_auth;
