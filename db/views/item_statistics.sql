-- Per question: the facility index (the share right), the discrimination index (the
-- correlation of the item with the rest of the test), the discriminative efficiency (the
-- item's covariance with the rest as a share of the largest it could have at that facility:
-- right answers from exactly the best students), the average time, and how many attempts.
CREATE OR REPLACE VIEW item_statistics WITH (security_invoker = true) AS
WITH ranked AS (
    SELECT r.*, count(*) FILTER (WHERE r.correct) OVER (PARTITION BY r.question_id) AS rights,
           row_number() OVER (PARTITION BY r.question_id ORDER BY r.rest DESC, r.session_id) AS position
    FROM item_responses r
)
SELECT question_id, count(*) AS attempts,
       avg(correct::integer)::double precision AS facility,
       corr(correct::integer, rest) AS discrimination,
       CASE WHEN covar_pop((position <= rights)::integer, rest) > 0
            THEN covar_pop(correct::integer, rest) / covar_pop((position <= rights)::integer, rest) END AS efficiency,
       avg(time_ms)::double precision AS average_ms
FROM ranked GROUP BY question_id;
GRANT SELECT ON item_statistics TO portal_app;
