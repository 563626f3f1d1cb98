-- Accuracy per exam, domain and ISO week (weeks begin on Monday in the student's time zone).
CREATE OR REPLACE VIEW domain_accuracy_weekly WITH (security_invoker = true) AS
    SELECT a.user_id, d.exam_id, d.id AS domain_id, d.slug AS domain_slug, d.title AS domain_title,
           date_trunc('week', a.answered_at AT TIME ZONE u.time_zone)::date AS week,
           count(*) AS answered, count(*) FILTER (WHERE a.correct) AS correct
    FROM answers a
    JOIN users u ON u.id = a.user_id
    JOIN questions q ON q.id = a.question_id
    JOIN domains d ON d.id = q.domain_id
    GROUP BY a.user_id, d.exam_id, d.id, u.time_zone, date_trunc('week', a.answered_at AT TIME ZONE u.time_zone);
GRANT SELECT ON domain_accuracy_weekly TO portal_app;
