-- A cloze question's statistics gap by gap, from the same first mock attempts as item_statistics:
-- how often each gap was right (typed_answer_outcome, as the answer was scored), and the wrong
-- answers given in it most often with their share of its attempts.
CREATE OR REPLACE VIEW item_gap_statistics WITH (security_invoker = true) AS
WITH given AS (
    SELECT r.question_id, g.n::integer AS gap, public.fill_in_normalized(g.v) AS answer,
           public.fill_in_normalized(g.v) <> ''
           AND (public.typed_answer_outcome(q.details -> 'gaps' -> (g.n::integer - 1), public.fill_in_normalized(g.v))).correct AS right_answer
    FROM public.item_responses r
    JOIN public.questions q ON q.id = r.question_id AND q.type = 'cloze'
    CROSS JOIN LATERAL jsonb_array_elements_text(r.response -> 'gaps') WITH ORDINALITY AS g(v, n)
    WHERE jsonb_typeof(r.response -> 'gaps') = 'array'
), per_gap AS (
    SELECT question_id, gap, count(*) AS attempts, avg(CASE WHEN right_answer THEN 1 ELSE 0 END)::double precision AS facility
    FROM given GROUP BY question_id, gap
)
SELECT p.question_id, p.gap, p.attempts, p.facility,
       coalesce((SELECT jsonb_agg(jsonb_build_array(w.answer, w.times::double precision / p.attempts) ORDER BY w.times DESC, w.answer)
                 FROM (SELECT x.answer, count(*) AS times FROM given x
                       WHERE x.question_id = p.question_id AND x.gap = p.gap AND NOT x.right_answer AND x.answer <> ''
                       GROUP BY x.answer ORDER BY count(*) DESC, x.answer LIMIT 3) w), '[]') AS common_wrong
FROM per_gap p;
GRANT SELECT ON item_gap_statistics TO portal_app;
