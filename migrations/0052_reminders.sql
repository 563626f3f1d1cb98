-- Reminders that arrive without an app. A student may have their reviews mailed to their
-- verified address, daily or weekly (off unless they choose), at their study time and only
-- when something is due; `digest_sent_on` is the last day one was queued, in their time zone.
-- Each message carries a link that turns the reminders off without signing in (RFC 8058's
-- one-click too): its token is kept only as a hash, for 60 days.
ALTER TABLE users
    ADD COLUMN digest text NOT NULL DEFAULT 'off' CHECK (digest IN ('off', 'daily', 'weekly')),
    ADD COLUMN digest_sent_on date;
GRANT SELECT (digest), UPDATE (digest) ON users TO portal_app;

CREATE TRIGGER users_digest_version BEFORE UPDATE OF digest ON users
    FOR EACH ROW WHEN (OLD.digest IS DISTINCT FROM NEW.digest) EXECUTE FUNCTION users_visibility_version();

CREATE TABLE mail_unsubscribes (
    token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL
);
CREATE INDEX mail_unsubscribes_age ON mail_unsubscribes (created_at);
ALTER TABLE mail_unsubscribes ENABLE ROW LEVEL SECURITY;
ALTER TABLE mail_unsubscribes FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, DELETE ON mail_unsubscribes TO portal_auth;
-- The reminder job looks at those who chose reminders only.
CREATE INDEX users_digest ON users (id) WHERE digest <> 'off';
