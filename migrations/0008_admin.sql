-- The admin content dashboard: an audit log of every change made through it, and the outcome
-- of student reports.

CREATE TABLE audit_log (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    actor_id uuid REFERENCES users(id) ON DELETE SET NULL,
    -- Who it was when the entry was written (a name survives the account).
    actor_name text NOT NULL,
    action text NOT NULL CHECK (action ~ '^[a-z][a-z.-]{1,60}$'),
    target text NOT NULL DEFAULT '' CHECK (length(target) <= 300),
    details jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(details) = 'object')
);
CREATE INDEX audit_log_recent ON audit_log (at DESC);
CREATE INDEX audit_log_by_action ON audit_log (action, at DESC);

ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
-- Admins write entries as themselves and read them all; nobody changes or deletes one.
CREATE POLICY audit_log_read ON audit_log FOR SELECT TO portal_app USING (app_role() = 'admin');
CREATE POLICY audit_log_write ON audit_log FOR INSERT TO portal_app
    WITH CHECK (app_role() = 'admin' AND actor_id = app_user_id());
GRANT SELECT, INSERT ON audit_log TO portal_app;

-- Resolving or dismissing a report, with a note for the record.
ALTER TABLE question_reports ADD COLUMN resolution text CHECK (resolution IN ('fixed', 'dismissed'));
ALTER TABLE question_reports ADD COLUMN resolution_note text NOT NULL DEFAULT '' CHECK (length(resolution_note) <= 2000);
ALTER TABLE question_reports ADD CONSTRAINT question_reports_resolved CHECK ((resolved_at IS NULL) = (resolution IS NULL));
GRANT UPDATE (resolution, resolution_note) ON question_reports TO portal_app;

-- Every version of every question, kept when it is written: the dashboard shows the history,
-- and an answer's question_version can always be looked up.
CREATE TABLE question_versions (
    question_id uuid NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
    version integer NOT NULL,
    saved_at timestamptz NOT NULL DEFAULT now(),
    snapshot jsonb NOT NULL,
    PRIMARY KEY (question_id, version)
);

CREATE FUNCTION questions_keep_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version THEN
        INSERT INTO question_versions (question_id, version, snapshot)
        VALUES (NEW.id, NEW.version, jsonb_build_object(
            'type', NEW.type, 'stem', NEW.stem, 'code', NEW.code, 'codeLanguage', NEW.code_language, 'options', NEW.options,
            'correct', NEW.correct, 'explanation', NEW.explanation, 'difficulty', NEW.difficulty, 'status', NEW.status,
            'deletedAt', NEW.deleted_at))
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER questions_keep_version AFTER INSERT OR UPDATE ON questions
    FOR EACH ROW EXECUTE FUNCTION questions_keep_version();

-- The versions written before this migration: their current state.
INSERT INTO question_versions (question_id, version, saved_at, snapshot)
SELECT id, version, updated_at, jsonb_build_object(
    'type', type, 'stem', stem, 'code', code, 'codeLanguage', code_language, 'options', options, 'correct', correct,
    'explanation', explanation, 'difficulty', difficulty, 'status', status, 'deletedAt', deleted_at)
FROM questions;

ALTER TABLE question_versions ENABLE ROW LEVEL SECURITY;
CREATE POLICY question_versions_admin ON question_versions FOR SELECT TO portal_app USING (app_role() = 'admin');
-- The trigger writes as whoever changed the question (an admin, or the owner loading content).
CREATE POLICY question_versions_write ON question_versions FOR INSERT TO portal_app WITH CHECK (app_role() = 'admin');
GRANT SELECT, INSERT ON question_versions TO portal_app;

-- Searching stems and options in every language: trigrams work without word boundaries
-- (Japanese, Chinese, Thai), which word-based text search does not.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX questions_search ON questions USING gin ((stem || ' ' || options::text) gin_trgm_ops);

-- Item statistics, from each student's first finished mock exam per exam: every question of
-- that attempt (unanswered counts as wrong), with the rest of the student's score.
CREATE VIEW item_responses WITH (security_invoker = true) AS
WITH first_attempts AS (
    SELECT DISTINCT ON (s.user_id, s.exam_id) s.id, s.exam_id, s.question_ids
    FROM study_sessions s
    WHERE s.mode = 'mock' AND s.finished_at IS NOT NULL AND s.user_id IS NOT NULL
    ORDER BY s.user_id, s.exam_id, s.started_at, s.id
), final_answers AS (
    SELECT DISTINCT ON (a.session_id, a.question_id) a.session_id, a.question_id, a.correct, a.response, a.time_ms
    FROM answers a JOIN first_attempts f ON f.id = a.session_id
    ORDER BY a.session_id, a.question_id, a.answered_at DESC, a.received_at DESC, a.id
), items AS (
    SELECT f.id AS session_id, f.exam_id, item.question_id, coalesce(x.correct, false) AS correct, x.response, x.time_ms
    FROM first_attempts f CROSS JOIN LATERAL unnest(f.question_ids) AS item(question_id)
    LEFT JOIN final_answers x ON x.session_id = f.id AND x.question_id = item.question_id
)
SELECT i.session_id, i.exam_id, i.question_id, i.correct, i.response, i.time_ms,
       (count(*) FILTER (WHERE i.correct) OVER (PARTITION BY i.session_id)) - i.correct::integer AS rest
FROM items i;

-- Per question: the facility index (the share right), the discrimination index (the
-- correlation of the item with the rest of the test), the discriminative efficiency (the
-- item's covariance with the rest as a share of the largest it could have at that facility:
-- right answers from exactly the best students), the average time, and how many attempts.
CREATE VIEW item_statistics WITH (security_invoker = true) AS
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

-- How often each option was picked in those attempts (choice questions).
CREATE VIEW item_option_shares WITH (security_invoker = true) AS
SELECT r.question_id, (pick.value)::integer AS option_index, count(*) AS picks,
       count(*)::double precision / (SELECT count(*) FROM item_responses t WHERE t.question_id = r.question_id) AS share
FROM item_responses r CROSS JOIN LATERAL jsonb_array_elements_text(r.response) AS pick(value)
JOIN questions q ON q.id = r.question_id AND q.type <> 'ordering'
GROUP BY r.question_id, (pick.value)::integer;

GRANT SELECT ON item_responses, item_statistics, item_option_shares TO portal_app;
