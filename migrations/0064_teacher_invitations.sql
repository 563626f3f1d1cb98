-- A school's invitation to teach: an admin makes a link (expiring, revocable, good for a number
-- of accounts); whoever registers through it is a teacher at once. Only its token's hash is
-- kept; the link is shown once.
CREATE TABLE teacher_invitations (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    school text NOT NULL CHECK (school = btrim(school) AND length(school) BETWEEN 1 AND 120),
    created_by uuid REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    uses_left integer NOT NULL CHECK (uses_left BETWEEN 0 AND 500),
    revoked_at timestamptz
);
ALTER TABLE teacher_invitations ENABLE ROW LEVEL SECURITY;
ALTER TABLE teacher_invitations FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT ON teacher_invitations TO portal_app;
GRANT UPDATE (revoked_at) ON teacher_invitations TO portal_app;
GRANT SELECT, UPDATE ON teacher_invitations TO portal_auth;
