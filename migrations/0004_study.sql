-- Study sessions, their append-only answers, the review cards derived from them, and
-- question reports (DESIGN §4, §5).
--
-- A session belongs to a signed-in user, or to a guest known only by the hash of a random
-- cookie (app.guest_key, set per transaction like app.user_id). Guests' sessions feed no
-- review card, dashboard or leaderboard.

CREATE FUNCTION app_guest_key() RETURNS bytea
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$ SELECT decode(NULLIF(current_setting('app.guest_key', true), ''), 'hex') $$;
GRANT EXECUTE ON FUNCTION app_guest_key() TO portal_app;

CREATE TABLE study_sessions (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
    guest_key bytea CHECK (length(guest_key) = 32),
    exam_id bigint NOT NULL REFERENCES exams(id),
    mode text NOT NULL CHECK (mode IN ('practice', 'mock', 'review', 'weak-spots')),
    -- What the student asked for (domains, difficulty range, count) and the selection seed.
    config jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(config) = 'object'),
    question_ids uuid[] NOT NULL CHECK (cardinality(question_ids) BETWEEN 1 AND 500),
    flagged uuid[] NOT NULL DEFAULT '{}',
    started_at timestamptz NOT NULL,
    -- A mock exam's time limit, enforced by the server whatever the browser does.
    deadline_at timestamptz,
    finished_at timestamptz,
    score_correct integer CHECK (score_correct >= 0),
    score_percent numeric(5, 2) CHECK (score_percent BETWEEN 0 AND 100),
    passed boolean,
    CHECK ((user_id IS NULL) <> (guest_key IS NULL)),
    CHECK (deadline_at IS NULL OR deadline_at > started_at),
    CHECK (finished_at IS NULL OR finished_at >= started_at),
    CHECK ((finished_at IS NULL) = (score_percent IS NULL))
);
CREATE INDEX study_sessions_by_user ON study_sessions (user_id, started_at DESC) WHERE user_id IS NOT NULL;
CREATE INDEX study_sessions_by_guest ON study_sessions (guest_key) WHERE guest_key IS NOT NULL;

-- A finished session is history: nothing about it changes any more.
CREATE FUNCTION study_sessions_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.finished_at IS NOT NULL THEN
        RAISE EXCEPTION 'study session % has ended', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER study_sessions_frozen BEFORE UPDATE ON study_sessions
    FOR EACH ROW EXECUTE FUNCTION study_sessions_frozen();

-- Append-only: portal_app may insert and read, never change or delete. The id comes from the
-- client, so a retried upload inserts nothing twice (ON CONFLICT (id) DO NOTHING).
CREATE TABLE answers (
    id uuid PRIMARY KEY,
    session_id uuid NOT NULL REFERENCES study_sessions(id) ON DELETE CASCADE,
    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
    question_id uuid NOT NULL REFERENCES questions(id),
    question_version integer NOT NULL,
    -- Chosen option indexes; for ordering, the order given.
    response jsonb NOT NULL CHECK (jsonb_typeof(response) = 'array'),
    correct boolean NOT NULL,
    score real NOT NULL CHECK (score BETWEEN 0 AND 1),
    -- The FSRS rating the answer maps to (RatingPolicy); null for guests, who have no cards.
    rating smallint CHECK (rating BETWEEN 1 AND 4),
    time_ms integer NOT NULL CHECK (time_ms BETWEEN 0 AND 86400000),
    answered_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX answers_by_session ON answers (session_id, question_id, answered_at DESC);
CREATE INDEX answers_by_user ON answers (user_id, answered_at) WHERE user_id IS NOT NULL;

-- One FSRS card per (student, question): derived data, rebuilt from the answers by
-- `portal rebuild-cards`, kept up to date by the server as answers arrive.
CREATE TABLE review_cards (
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    question_id uuid NOT NULL REFERENCES questions(id),
    state text NOT NULL CHECK (state IN ('learning', 'review', 'relearning')),
    step integer CHECK (step >= 0),
    stability double precision NOT NULL CHECK (stability > 0),
    difficulty double precision NOT NULL CHECK (difficulty BETWEEN 1 AND 10),
    due timestamptz NOT NULL,
    last_review timestamptz NOT NULL,
    first_review timestamptz NOT NULL,
    reviews integer NOT NULL CHECK (reviews >= 1),
    lapses integer NOT NULL DEFAULT 0 CHECK (lapses >= 0),
    PRIMARY KEY (user_id, question_id)
);
CREATE INDEX review_cards_due ON review_cards (user_id, due);

CREATE TABLE question_reports (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    question_id uuid NOT NULL REFERENCES questions(id),
    question_version integer NOT NULL,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    reason text NOT NULL CHECK (reason IN ('wrong-answer', 'unclear', 'typo', 'outdated', 'other')),
    comment text NOT NULL DEFAULT '' CHECK (length(comment) <= 2000),
    created_at timestamptz NOT NULL DEFAULT now(),
    resolved_at timestamptz
);
CREATE INDEX question_reports_open ON question_reports (created_at) WHERE resolved_at IS NULL;

ALTER TABLE study_sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE study_sessions FORCE ROW LEVEL SECURITY;
ALTER TABLE answers ENABLE ROW LEVEL SECURITY;
ALTER TABLE answers FORCE ROW LEVEL SECURITY;
ALTER TABLE review_cards ENABLE ROW LEVEL SECURITY;
ALTER TABLE review_cards FORCE ROW LEVEL SECURITY;
ALTER TABLE question_reports ENABLE ROW LEVEL SECURITY;
ALTER TABLE question_reports FORCE ROW LEVEL SECURITY;

-- A student (or a guest, by cookie) sees and writes their own sessions; an admin reads all.
CREATE POLICY study_sessions_owner ON study_sessions TO portal_app
    USING (user_id = app_user_id() OR (user_id IS NULL AND guest_key = app_guest_key()))
    WITH CHECK (user_id = app_user_id() OR (user_id IS NULL AND app_user_id() IS NULL AND guest_key = app_guest_key()));
CREATE POLICY study_sessions_admin ON study_sessions FOR SELECT TO portal_app USING (app_role() = 'admin');

-- Answers follow their session; they go only into one's own unfinished session.
CREATE POLICY answers_read ON answers FOR SELECT TO portal_app
    USING (user_id = app_user_id() OR app_role() = 'admin'
           OR (user_id IS NULL AND EXISTS (SELECT 1 FROM study_sessions s WHERE s.id = session_id)));
CREATE POLICY answers_insert ON answers FOR INSERT TO portal_app
    WITH CHECK (user_id IS NOT DISTINCT FROM app_user_id()
                AND EXISTS (SELECT 1 FROM study_sessions s
                            WHERE s.id = session_id AND s.finished_at IS NULL
                              AND s.user_id IS NOT DISTINCT FROM app_user_id()));

CREATE POLICY review_cards_owner ON review_cards TO portal_app
    USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
CREATE POLICY review_cards_admin ON review_cards FOR SELECT TO portal_app USING (app_role() = 'admin');

CREATE POLICY question_reports_insert ON question_reports FOR INSERT TO portal_app
    WITH CHECK (user_id = app_user_id());
CREATE POLICY question_reports_read ON question_reports FOR SELECT TO portal_app
    USING (user_id = app_user_id() OR app_role() = 'admin');
CREATE POLICY question_reports_resolve ON question_reports FOR UPDATE TO portal_app
    USING (app_role() = 'admin') WITH CHECK (app_role() = 'admin');

GRANT SELECT, INSERT ON study_sessions TO portal_app;
GRANT UPDATE (flagged, finished_at, score_correct, score_percent, passed) ON study_sessions TO portal_app;
GRANT SELECT, INSERT ON answers TO portal_app;
GRANT SELECT, INSERT, UPDATE ON review_cards TO portal_app;
GRANT SELECT, INSERT ON question_reports TO portal_app;
GRANT UPDATE (resolved_at) ON question_reports TO portal_app;

-- FSRS-6's forgetting curve with the default decay (w20 = 0.1542), in whole days since the
-- last review as the scheduler counts them: the same number as FSRSScheduler.retrievability.
CREATE FUNCTION fsrs_retrievability(stability double precision, last_review timestamptz, at timestamptz)
    RETURNS double precision
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT power(1 + (power(0.9, 1 / -0.1542) - 1)
                 * greatest(0, floor(extract(epoch FROM at - last_review) / 86400)) / stability, -0.1542)
$$;
GRANT EXECUTE ON FUNCTION fsrs_retrievability(double precision, timestamptz, timestamptz) TO portal_app;

-- The dashboard's aggregates. security_invoker: they run under the reader's row-level
-- security, so each student aggregates only their own rows.

-- Answers per day in the student's own time zone (for the streak and activity).
CREATE VIEW study_days WITH (security_invoker = true) AS
    SELECT a.user_id, (a.answered_at AT TIME ZONE u.time_zone)::date AS day,
           count(*) AS answered, count(*) FILTER (WHERE a.correct) AS correct
    FROM answers a JOIN users u ON u.id = a.user_id
    GROUP BY a.user_id, u.time_zone, (a.answered_at AT TIME ZONE u.time_zone)::date;

-- Accuracy per exam, domain and ISO week (weeks begin on Monday in the student's time zone).
CREATE VIEW domain_accuracy_weekly WITH (security_invoker = true) AS
    SELECT a.user_id, d.exam_id, d.id AS domain_id, d.slug AS domain_slug, d.title AS domain_title,
           date_trunc('week', a.answered_at AT TIME ZONE u.time_zone)::date AS week,
           count(*) AS answered, count(*) FILTER (WHERE a.correct) AS correct
    FROM answers a
    JOIN users u ON u.id = a.user_id
    JOIN questions q ON q.id = a.question_id
    JOIN domains d ON d.id = q.domain_id
    GROUP BY a.user_id, d.exam_id, d.id, u.time_zone, date_trunc('week', a.answered_at AT TIME ZONE u.time_zone);

-- Each review card with the exam and domain of its question.
CREATE VIEW cards_by_domain WITH (security_invoker = true) AS
    SELECT c.user_id, d.exam_id, d.id AS domain_id, c.question_id, c.state, c.stability, c.last_review, c.due, c.first_review
    FROM review_cards c
    JOIN questions q ON q.id = c.question_id
    JOIN domains d ON d.id = q.domain_id;

GRANT SELECT ON study_days, domain_accuracy_weekly, cards_by_domain TO portal_app;
