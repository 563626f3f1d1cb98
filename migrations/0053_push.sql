-- Reminders on the installed site (Web Push, RFC 8030/8291/8292). A browser that allowed
-- notifications subscribes at a push service and hands the portal its endpoint and keys;
-- `portal auth-agent` (the one process that reaches other parties) signs each message with the
-- portal's VAPID key, which it makes once and alone reads, and encrypts it for the browser.
-- The app reads the public half only (browsers subscribe with it). `push_sent_on` is the last
-- day a reminder went, in the student's time zone.
ALTER TABLE users ADD COLUMN push_sent_on date;

CREATE TABLE push_subscriptions (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    endpoint text NOT NULL UNIQUE CHECK (length(endpoint) BETWEEN 12 AND 1000 AND endpoint ~ '^https?://[^\s]+$'),
    p256dh bytea NOT NULL CHECK (length(p256dh) = 65),
    auth bytea NOT NULL CHECK (length(auth) = 16),
    created_at timestamptz NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
ALTER TABLE push_subscriptions ENABLE ROW LEVEL SECURITY;
ALTER TABLE push_subscriptions FORCE ROW LEVEL SECURITY;
GRANT SELECT (id, user_id, created_at), DELETE ON push_subscriptions TO portal_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON push_subscriptions TO portal_auth;

CREATE TABLE push_keys (
    id smallint PRIMARY KEY CHECK (id = 1),
    private_pem text NOT NULL,
    public_point bytea NOT NULL CHECK (length(public_point) = 65),
    created_at timestamptz NOT NULL
);
ALTER TABLE push_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE push_keys FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT ON push_keys TO portal_auth;
