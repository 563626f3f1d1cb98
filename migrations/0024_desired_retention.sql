-- Each student chooses the retention their reviews aim at: 0.70 to 0.97 (FSRS's own range),
-- 0.90 unless they choose. The scheduler uses it for every review from then on (and the
-- student's cards are rescheduled from their history when it changes); their pages show it, so
-- a change is a change of their data version, announced like any other.
ALTER TABLE users ADD COLUMN desired_retention numeric(3, 2) NOT NULL DEFAULT 0.90
    CHECK (desired_retention BETWEEN 0.70 AND 0.97);
GRANT SELECT (desired_retention), UPDATE (desired_retention) ON users TO portal_app;

CREATE TRIGGER users_retention_version BEFORE UPDATE OF desired_retention ON users
    FOR EACH ROW WHEN (OLD.desired_retention IS DISTINCT FROM NEW.desired_retention)
    EXECUTE FUNCTION users_visibility_version();
