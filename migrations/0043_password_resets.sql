-- One-time codes for a student who forgot their password: issued by a teacher of a class they
-- are in, or by an admin, shown once (only the code's hash is kept), valid a day, used once.
-- Nobody reads or writes the table but the definer functions that issue and take the codes
-- (auth_issue_reset, auth_reset_password): portal_app cannot mint one or look one up.
CREATE TABLE password_resets (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash bytea NOT NULL UNIQUE CHECK (length(code_hash) = 32),
    issued_by uuid REFERENCES users(id) ON DELETE SET NULL,
    issued_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL CHECK (expires_at > issued_at),
    used_at timestamptz
);
CREATE INDEX password_resets_by_user ON password_resets (user_id);
CREATE INDEX password_resets_expiry ON password_resets (expires_at);

ALTER TABLE password_resets ENABLE ROW LEVEL SECURITY;
ALTER TABLE password_resets FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE, DELETE ON password_resets TO portal_auth;
