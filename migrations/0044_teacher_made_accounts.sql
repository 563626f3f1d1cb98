-- Accounts a teacher makes for a class: no e-mail, and no password until the student's first
-- sign-in with the start code printed on their card (a reset code, password_resets). `made_by`
-- says who made one, so such an account may choose its first password with a code though it
-- has none yet, unlike an account of a school's sign-in; portal_app has no grant on it.
ALTER TABLE users ADD COLUMN made_by uuid REFERENCES users(id) ON DELETE SET NULL;
CREATE INDEX users_made_by ON users (made_by, created_at) WHERE made_by IS NOT NULL;
