-- Item statistics read the answers that count, too: each student's first whole mock of an exam
-- (first_mock_items: a shorter one a student chose, or one they ended by starting another, does
-- not count; a deleted account's included), with the right answers of the rest of that mock.
CREATE OR REPLACE VIEW item_responses WITH (security_invoker = true) AS
SELECT i.session_id, i.exam_id, i.question_id, i.correct, i.response, i.time_ms,
       (count(*) FILTER (WHERE i.correct) OVER (PARTITION BY i.session_id)) - i.correct::integer AS rest
FROM public.first_mock_items(NULL) i;
GRANT SELECT ON item_responses TO portal_app;
