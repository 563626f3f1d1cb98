-- Item statistics read the answers that count, too: each student's first whole mock of an exam
-- (a shorter one a student chose, or one they ended by starting another, does not count), a deleted account's included (its sessions
-- share one anonymous key).
CREATE OR REPLACE VIEW item_responses WITH (security_invoker = true) AS
WITH first_attempts AS (
    SELECT DISTINCT ON (coalesce(s.user_id, s.anonymous_key), s.exam_id) s.id, s.exam_id, s.question_ids
    FROM public.study_sessions s
    WHERE s.mode = 'mock' AND s.finished_at IS NOT NULL AND (s.user_id IS NOT NULL OR s.anonymous_key IS NOT NULL)
      AND coalesce(s.config->>'length', 'full') = 'full' AND NOT s.set_aside
    ORDER BY coalesce(s.user_id, s.anonymous_key), s.exam_id, s.started_at, s.id
), final_answers AS (
    SELECT c.session_id, c.question_id, c.correct, c.response, c.time_ms
    FROM public.counted_answers c JOIN first_attempts f ON f.id = c.session_id
), items AS (
    SELECT f.id AS session_id, f.exam_id, item.question_id, coalesce(x.correct, false) AS correct, x.response, x.time_ms
    FROM first_attempts f CROSS JOIN LATERAL unnest(f.question_ids) AS item(question_id)
    LEFT JOIN final_answers x ON x.session_id = f.id AND x.question_id = item.question_id
)
SELECT i.session_id, i.exam_id, i.question_id, i.correct, i.response, i.time_ms,
       (count(*) FILTER (WHERE i.correct) OVER (PARTITION BY i.session_id)) - i.correct::integer AS rest
FROM items i;
GRANT SELECT ON item_responses TO portal_app;
-- question_facilities reads them for a teacher choosing a quiz's questions (shares only).
GRANT SELECT ON item_responses TO portal_auth;
