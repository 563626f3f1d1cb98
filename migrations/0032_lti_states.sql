-- LTI login initiation: the state and nonce of each login, kept here rather than in a cookie
-- (inside an LMS's iframe a third-party cookie may never come back), keyed by the state's
-- SHA-256, so the value a browser carries is not stored. The launch (next) reads and uses each once.
CREATE TABLE lti_states (
    state_hash bytea PRIMARY KEY CHECK (octet_length(state_hash) = 32),
    nonce text NOT NULL CHECK (nonce ~ '^[A-Za-z0-9_-]{16,64}$'),
    platform_id bigint NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    target_link_uri text NOT NULL CHECK (length(target_link_uri) BETWEEN 1 AND 2000),
    created_at timestamptz NOT NULL DEFAULT now(),
    used_at timestamptz
);
CREATE INDEX lti_states_by_age ON lti_states (created_at);
-- Nobody is signed in yet at a login: the app adds states; knowing a state's hash is what
-- finds it, and a state is never listed to anyone.
ALTER TABLE lti_states ENABLE ROW LEVEL SECURITY;
CREATE POLICY lti_states_add ON lti_states FOR INSERT TO portal_app WITH CHECK (used_at IS NULL);
GRANT INSERT ON lti_states TO portal_app;
