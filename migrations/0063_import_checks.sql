-- An import in the dashboard is checked before it lands: the file the admin sent is kept here
-- (a day at most) while they read what it would do, then imported as drafts or published, or
-- left. Each admin's own; nobody else reads them.
CREATE TABLE import_checks (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    admin_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    document bytea NOT NULL CHECK (length(document) BETWEEN 1 AND 23068672),
    into_exam text NOT NULL DEFAULT '' CHECK (length(into_exam) <= 200),
    domain text NOT NULL DEFAULT '' CHECK (length(domain) <= 80),
    skip_unsupported boolean NOT NULL DEFAULT false
);
CREATE INDEX import_checks_admin ON import_checks (admin_id, created_at);
ALTER TABLE import_checks ENABLE ROW LEVEL SECURITY;
ALTER TABLE import_checks FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, DELETE ON import_checks TO portal_app;
