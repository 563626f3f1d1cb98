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
