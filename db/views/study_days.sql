-- Answers per day in the student's own time zone (for the streak and activity).
CREATE OR REPLACE VIEW study_days WITH (security_invoker = true) AS
    SELECT a.user_id, (a.answered_at AT TIME ZONE u.time_zone)::date AS day,
           count(*) AS answered, count(*) FILTER (WHERE a.correct) AS correct
    FROM answers a JOIN users u ON u.id = a.user_id
    GROUP BY a.user_id, u.time_zone, (a.answered_at AT TIME ZONE u.time_zone)::date;
GRANT SELECT ON study_days TO portal_app;
