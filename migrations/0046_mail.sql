-- E-mail: an optional, verified address per account, recovery by a link sent to it, and the
-- outbox every message goes through.
--
-- The address lives in a table of its own, so nobody but its owner (and an admin) reads it:
-- a teacher who sees their students' accounts does not see where they get mail. Only a
-- verified address is kept there; one waiting for its link is in email_verifications.
CREATE TABLE user_emails (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254 AND email ~ '^[!-~]+@[A-Za-z0-9.-]+$'),
    verified_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX user_emails_address ON user_emails (lower(email));
ALTER TABLE user_emails ENABLE ROW LEVEL SECURITY;
ALTER TABLE user_emails FORCE ROW LEVEL SECURITY;
GRANT SELECT ON user_emails TO portal_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON user_emails TO portal_auth;

-- A link that proves an address: the token's hash only, a day, once.
CREATE TABLE email_verifications (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL CHECK (expires_at > created_at),
    used_at timestamptz
);
CREATE INDEX email_verifications_by_user ON email_verifications (user_id);
ALTER TABLE email_verifications ENABLE ROW LEVEL SECURITY;
ALTER TABLE email_verifications FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE, DELETE ON email_verifications TO portal_auth;

-- A reset sent by mail (a link's token, an hour) is not a code typed with a username.
ALTER TABLE password_resets ADD COLUMN by_mail boolean NOT NULL DEFAULT false;

-- Every message on its way: queued by the database's own functions (which choose the
-- recipient), taken by the sender in `portal auth-agent` for a short lease, then marked sent
-- or put back with a growing wait; a refusal that cannot change, or two days of failures,
-- gives up. `secret` is a link's token, which the database made and only the agent reads: it
-- builds the link from its own origin and `link_path`, and the token is erased once sent.
-- portal_app reads nothing here (an admin sees the counts through mail_outbox_summary).
CREATE TABLE mail_outbox (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    purpose text NOT NULL CHECK (purpose ~ '^[a-z-]{1,40}$'),
    recipient text NOT NULL CHECK (length(recipient) BETWEEN 3 AND 254),
    recipient_name text NOT NULL DEFAULT '' CHECK (length(recipient_name) <= 200),
    locale text NOT NULL CHECK (locale ~ '^[a-z]{2,3}$'),
    subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 300),
    text_body text NOT NULL CHECK (length(text_body) <= 20000),
    html_body text NOT NULL CHECK (length(html_body) <= 60000),
    link_path text CHECK (link_path ~ '^/[a-z/-]{1,60}/$'),
    secret text,
    created_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    sent_at timestamptz,
    given_up_at timestamptz,
    last_error text
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND given_up_at IS NULL;
CREATE INDEX mail_outbox_done ON mail_outbox (created_at) WHERE sent_at IS NOT NULL OR given_up_at IS NOT NULL;
ALTER TABLE mail_outbox ENABLE ROW LEVEL SECURITY;
ALTER TABLE mail_outbox FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE, DELETE ON mail_outbox TO portal_auth;
