-- ---------------------------------------------------------------------------------------------
-- Item statistics per kind: option shares for the kinds whose answers pick options (a hotspot's
-- click counts for the region it fell in), and for fill-in the wrong answers typed most.
CREATE OR REPLACE VIEW item_option_shares WITH (security_invoker = true) AS
WITH picks AS (
    SELECT r.question_id, (pick.value)::integer AS option_index
    FROM item_responses r
    JOIN questions q ON q.id = r.question_id AND q.type IN ('single-choice', 'multi-choice', 'code-snippet', 'hotspot')
    CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(r.response) = 'array' THEN r.response ELSE '[]'::jsonb END) AS pick(value)
    UNION ALL
    SELECT r.question_id, (SELECT (o.n - 1)::integer FROM jsonb_array_elements(q.options) WITH ORDINALITY AS o(value, n)
                           WHERE public.hotspot_contains(o.value -> 'region', (r.response -> 'point' ->> 0)::double precision,
                                                         (r.response -> 'point' ->> 1)::double precision)
                           ORDER BY o.n LIMIT 1)
    FROM item_responses r JOIN questions q ON q.id = r.question_id AND q.type = 'hotspot'
    WHERE jsonb_typeof(r.response -> 'point') = 'array'
)
SELECT p.question_id, p.option_index, count(*) AS picks,
       count(*)::double precision / (SELECT count(*) FROM item_responses t WHERE t.question_id = p.question_id) AS share
FROM picks p WHERE p.option_index IS NOT NULL
GROUP BY p.question_id, p.option_index;
GRANT SELECT ON item_option_shares TO portal_app;
