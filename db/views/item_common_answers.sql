CREATE OR REPLACE VIEW item_common_answers WITH (security_invoker = true) AS
SELECT r.question_id, public.fill_in_normalized(r.response ->> 'text') AS answer, count(*) AS times,
       count(*)::double precision / (SELECT count(*) FROM item_responses t WHERE t.question_id = r.question_id) AS share
FROM item_responses r
WHERE NOT r.correct AND jsonb_typeof(r.response -> 'text') = 'string'
GROUP BY r.question_id, public.fill_in_normalized(r.response ->> 'text');
GRANT SELECT ON item_common_answers TO portal_app;
