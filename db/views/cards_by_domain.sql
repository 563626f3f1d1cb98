-- Each review card with the exam and domain of its question.
CREATE OR REPLACE VIEW cards_by_domain WITH (security_invoker = true) AS
    SELECT c.user_id, d.exam_id, d.id AS domain_id, c.question_id, c.state, c.stability, c.last_review, c.due, c.first_review
    FROM review_cards c
    JOIN questions q ON q.id = c.question_id
    JOIN domains d ON d.id = q.domain_id;
GRANT SELECT ON cards_by_domain TO portal_app;
