-- Asking to teach: an account registered as a teacher (or a student who asks later) files a
-- request naming its school, with a note; an admin approves it (the account becomes a
-- teacher's) or refuses it from the queue under /admin/teachers, audited. One open request per
-- account; a refused one may be asked again. Only the definer functions in db/ write it
-- (teacher_request_file, teacher_request_decide); the requester and admins read it.
CREATE TABLE teacher_requests (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    school text NOT NULL CHECK (school = btrim(school) AND length(school) BETWEEN 1 AND 120),
    note text NOT NULL DEFAULT '' CHECK (length(note) <= 1000),
    created_at timestamptz NOT NULL,
    decision text CHECK (decision IN ('approved', 'refused')),
    decided_at timestamptz,
    decided_by uuid REFERENCES users(id) ON DELETE SET NULL,
    CHECK ((decision IS NULL) = (decided_at IS NULL))
);
CREATE UNIQUE INDEX teacher_requests_one_open ON teacher_requests (user_id) WHERE decision IS NULL;
CREATE INDEX teacher_requests_open ON teacher_requests (created_at) WHERE decision IS NULL;
CREATE INDEX teacher_requests_user ON teacher_requests (user_id, decided_at);
ALTER TABLE teacher_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE teacher_requests FORCE ROW LEVEL SECURITY;
GRANT SELECT ON teacher_requests TO portal_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON teacher_requests TO portal_auth;
