-- Retention: what a guest leaves (practice sessions with their answers, live-event entries)
-- and accounts registered but never used are purged after GUEST_RETENTION_DAYS by the
-- background job (purge_expired_data), which alone may delete them.
GRANT DELETE ON study_sessions, live_participants TO portal_auth;
CREATE INDEX live_participants_guest_age ON live_participants (joined_at) WHERE guest_key IS NOT NULL;
CREATE INDEX users_by_age ON users (created_at) WHERE role = 'student' AND made_by IS NULL;
