-- A study rhythm a person can keep. Each student chooses whether reviews are spread evenly over
-- FSRS's fuzz range (on unless they turn it off), how much each weekday may take ("easy days":
-- seven letters, Monday first — n normal, r reduced to half, x none; never all x), and the time
-- of day they study (the calendar feed's and the reminders' hour). Holidays are date ranges in
-- which nothing is due. Every scheduling path reads these in review_card_apply, and a change of
-- any of them reschedules the student's cards from their history (as a change of retention does).
ALTER TABLE users
    ADD COLUMN balance_reviews boolean NOT NULL DEFAULT true,
    ADD COLUMN easy_days text NOT NULL DEFAULT 'nnnnnnn' CHECK (easy_days ~ '^[nrx]{7}$' AND easy_days <> 'xxxxxxx'),
    ADD COLUMN study_time time NOT NULL DEFAULT '18:00' CHECK (study_time = date_trunc('minute', study_time));
GRANT SELECT (balance_reviews, easy_days, study_time), UPDATE (balance_reviews, easy_days, study_time) ON users TO portal_app;

CREATE TRIGGER users_rhythm_version BEFORE UPDATE OF balance_reviews, easy_days, study_time ON users
    FOR EACH ROW WHEN ((OLD.balance_reviews, OLD.easy_days, OLD.study_time) IS DISTINCT FROM (NEW.balance_reviews, NEW.easy_days, NEW.study_time))
    EXECUTE FUNCTION users_visibility_version();

CREATE TABLE study_holidays (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    starts_on date NOT NULL,
    ends_on date NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    -- What setting it did to the schedule, counted when it was set: reviews moved into the week
    -- before it and into the week after (what the student's pages say it costs).
    moved_before integer NOT NULL DEFAULT 0 CHECK (moved_before >= 0),
    moved_after integer NOT NULL DEFAULT 0 CHECK (moved_after >= 0),
    -- Up to two months at a time: a longer break is a pause of the whole plan, not a holiday.
    CHECK (ends_on >= starts_on AND ends_on - starts_on < 62)
);
CREATE INDEX study_holidays_user ON study_holidays (user_id, ends_on);
ALTER TABLE study_holidays ENABLE ROW LEVEL SECURITY;
ALTER TABLE study_holidays FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, DELETE ON study_holidays TO portal_app;
GRANT UPDATE (moved_before, moved_after) ON study_holidays TO portal_app;
-- The scheduler (review_card_apply, run by portal_auth's definer functions) reads every student's;
-- account deletion removes them.
GRANT SELECT, DELETE ON study_holidays TO portal_auth;

-- Holidays are part of what the student's own pages show.
CREATE TRIGGER study_holidays_version AFTER INSERT OR DELETE ON study_holidays
    FOR EACH ROW EXECUTE FUNCTION data_version_bump();

-- A student's calendar feed: a secret address (the token, stored hashed) a calendar application
-- polls without signing in. The feed's text is kept with what it was made from (the student's
-- data version and the day), so a poll between changes reads it back; `changed_at` is when its
-- text last changed (the feed's Last-Modified). Only the database's functions read it by token.
CREATE TABLE calendar_feeds (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at timestamptz NOT NULL,
    body text,
    made_for text,
    changed_at timestamptz
);
ALTER TABLE calendar_feeds ENABLE ROW LEVEL SECURITY;
ALTER TABLE calendar_feeds FORCE ROW LEVEL SECURITY;
GRANT SELECT (user_id, created_at), DELETE ON calendar_feeds TO portal_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON calendar_feeds TO portal_auth;

-- The answers' scheduling trigger reviews a statement's answers as a set (see answers_schedule):
-- the row trigger it replaces is dropped here, its successor is in db/triggers/answers.sql.
DROP TRIGGER IF EXISTS answers_schedule ON answers;
DROP FUNCTION IF EXISTS answers_schedule();
