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
