-- Deleting an account (GDPR article 17): the person's data is erased, and what they answered
-- stays only as anonymous rows, so item statistics keep adding up. A deleted account's study
-- sessions keep an `anonymous_key` instead of a user: one random value for all of them (a first
-- mock attempt stays the first), tied to nothing once the account is gone.
ALTER TABLE study_sessions ADD COLUMN anonymous_key uuid;
ALTER TABLE study_sessions DROP CONSTRAINT study_sessions_check;
ALTER TABLE study_sessions ADD CONSTRAINT study_sessions_one_owner CHECK (num_nonnulls(user_id, guest_key, anonymous_key) = 1);
GRANT UPDATE (anonymous_key) ON study_sessions TO portal_auth;
GRANT UPDATE (answered_at) ON answers TO portal_auth;

-- A live event outlives its host's account (its players' results are theirs).
ALTER TABLE live_events ALTER COLUMN host_id DROP NOT NULL;
ALTER TABLE live_events DROP CONSTRAINT live_events_host_id_fkey;
ALTER TABLE live_events ADD CONSTRAINT live_events_host_id_fkey FOREIGN KEY (host_id) REFERENCES users(id) ON DELETE SET NULL;

-- The definer functions delete the account and take its name out of the audit log.
GRANT DELETE ON users TO portal_auth;
GRANT UPDATE (target, actor_name) ON audit_log TO portal_auth;

-- Guests' sessions older than GUEST_RETENTION_DAYS are purged by the background job.
CREATE INDEX study_sessions_guest_age ON study_sessions (started_at) WHERE guest_key IS NOT NULL;
