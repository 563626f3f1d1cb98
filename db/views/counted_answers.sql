-- The answer that counts for each question of a session: in a mock exam the latest that
-- arrived (answers may change until the deadline, and none is admitted after it); elsewhere
-- the first (one answer per question per session). Arrival is the database's clock; the
-- device's time only breaks ties within one upload. (Its columns are named: `a.*` would
-- change the view whenever answers gains a column.)
CREATE OR REPLACE VIEW counted_answers WITH (security_invoker = true) AS
    SELECT DISTINCT ON (a.session_id, a.question_id) a.id, a.session_id, a.user_id, a.question_id, a.question_version, a.response,
           a.correct, a.score, a.rating, a.time_ms, a.answered_at, a.received_at
    FROM public.answers a JOIN public.study_sessions s ON s.id = a.session_id
    ORDER BY a.session_id, a.question_id,
             CASE WHEN s.mode = 'mock' THEN a.received_at END DESC,
             CASE WHEN s.mode = 'mock' THEN a.answered_at END DESC,
             CASE WHEN s.mode <> 'mock' THEN a.received_at END,
             CASE WHEN s.mode <> 'mock' THEN a.answered_at END,
             a.id;
GRANT SELECT ON counted_answers TO portal_app;
-- The definer functions that score and replay sessions (finish_study_session, review_history) read it as their owner.
GRANT SELECT ON counted_answers TO portal_auth;
