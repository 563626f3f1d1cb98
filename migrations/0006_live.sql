-- Live events (a classroom quiz game): the host's event, who joined, every answer as an
-- append-only row, and the final results. The running scoreboard lives in Redis; PostgreSQL
-- keeps what must last.
--
-- A participant is a signed-in student (app.user_id) or a guest with a nickname, known by
-- the hash of a random cookie (app.guest_key), as guests' study sessions are.

CREATE TABLE live_events (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    code text NOT NULL UNIQUE CHECK (code ~ '^[A-HJ-NP-Z2-9]{6}$'),
    exam_id bigint NOT NULL REFERENCES exams(id),
    host_id uuid NOT NULL REFERENCES users(id),
    title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 120),
    question_ids uuid[] NOT NULL CHECK (cardinality(question_ids) BETWEEN 1 AND 50),
    seconds_per_question integer NOT NULL CHECK (seconds_per_question BETWEEN 5 AND 300),
    -- The pause between questions, when the answer and the scoreboard are shown.
    pause_seconds integer NOT NULL DEFAULT 5 CHECK (pause_seconds BETWEEN 1 AND 60),
    created_at timestamptz NOT NULL,
    -- Set once, when the host starts: every question's window follows from it.
    starts_at timestamptz,
    ended_at timestamptz,
    CHECK (ended_at IS NULL OR starts_at IS NOT NULL)
);

CREATE TABLE live_participants (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    event_id uuid NOT NULL REFERENCES live_events(id) ON DELETE CASCADE,
    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
    guest_key bytea CHECK (length(guest_key) = 32),
    nickname text NOT NULL CHECK (length(btrim(nickname)) BETWEEN 2 AND 24),
    joined_at timestamptz NOT NULL,
    CHECK ((user_id IS NULL) <> (guest_key IS NULL))
);
CREATE UNIQUE INDEX live_participants_nickname ON live_participants (event_id, lower(nickname));
CREATE UNIQUE INDEX live_participants_user ON live_participants (event_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX live_participants_guest ON live_participants (event_id, guest_key) WHERE guest_key IS NOT NULL;

-- Append-only, like study answers: one per participant and question, scored by the server.
CREATE TABLE live_answers (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    event_id uuid NOT NULL REFERENCES live_events(id) ON DELETE CASCADE,
    participant_id uuid NOT NULL REFERENCES live_participants(id) ON DELETE CASCADE,
    question_index integer NOT NULL CHECK (question_index >= 0),
    question_id uuid NOT NULL REFERENCES questions(id),
    question_version integer NOT NULL,
    response jsonb NOT NULL CHECK (jsonb_typeof(response) = 'array'),
    correct boolean NOT NULL,
    -- Milliseconds from the question opening to the answer arriving, on the server's clock.
    time_ms integer NOT NULL CHECK (time_ms >= 0),
    -- Points for correctness and speed; a run of right answers adds a bonus on top
    -- (LiveScoring), which the totals in event_results include.
    base_points integer NOT NULL CHECK (base_points >= 0),
    answered_at timestamptz NOT NULL,
    UNIQUE (participant_id, question_index)
);
CREATE INDEX live_answers_by_event ON live_answers (event_id, participant_id, question_index);

CREATE TABLE event_results (
    event_id uuid NOT NULL REFERENCES live_events(id) ON DELETE CASCADE,
    participant_id uuid NOT NULL REFERENCES live_participants(id) ON DELETE CASCADE,
    nickname text NOT NULL,
    rank integer NOT NULL CHECK (rank >= 1),
    points integer NOT NULL CHECK (points >= 0),
    correct integer NOT NULL CHECK (correct >= 0),
    PRIMARY KEY (event_id, participant_id)
);

ALTER TABLE live_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE live_events FORCE ROW LEVEL SECURITY;
ALTER TABLE live_participants ENABLE ROW LEVEL SECURITY;
ALTER TABLE live_participants FORCE ROW LEVEL SECURITY;
ALTER TABLE live_answers ENABLE ROW LEVEL SECURITY;
ALTER TABLE live_answers FORCE ROW LEVEL SECURITY;
ALTER TABLE event_results ENABLE ROW LEVEL SECURITY;
ALTER TABLE event_results FORCE ROW LEVEL SECURITY;

-- Whether the caller hosts (or, as an admin, may run) the event.
CREATE FUNCTION live_is_host(p_event uuid) RETURNS boolean
    LANGUAGE sql STABLE AS $$
    SELECT app_role() = 'admin' OR EXISTS (SELECT 1 FROM live_events WHERE id = p_event AND host_id = app_user_id())
$$;

-- Anyone with the code may see an event (its title, exam, timing); teachers and admins create
-- them; only the host starts or ends one.
CREATE POLICY live_events_read ON live_events FOR SELECT TO portal_app USING (true);
CREATE POLICY live_events_create ON live_events FOR INSERT TO portal_app
    WITH CHECK (host_id = app_user_id() AND app_role() IN ('teacher', 'admin'));
CREATE POLICY live_events_host ON live_events FOR UPDATE TO portal_app
    USING (host_id = app_user_id() OR app_role() = 'admin') WITH CHECK (host_id = app_user_id() OR app_role() = 'admin');

-- A participant sees their own row; the host sees everyone in the event.
CREATE POLICY live_participants_read ON live_participants FOR SELECT TO portal_app
    USING (user_id = app_user_id() OR guest_key = app_guest_key() OR live_is_host(event_id));
CREATE POLICY live_participants_join ON live_participants FOR INSERT TO portal_app
    WITH CHECK (CASE WHEN user_id IS NULL THEN app_user_id() IS NULL AND guest_key = app_guest_key()
                     ELSE user_id = app_user_id() AND guest_key IS NULL END);

CREATE POLICY live_answers_read ON live_answers FOR SELECT TO portal_app
    USING (live_is_host(event_id)
           OR EXISTS (SELECT 1 FROM live_participants p WHERE p.id = participant_id
                      AND (p.user_id = app_user_id() OR p.guest_key = app_guest_key())));
CREATE POLICY live_answers_insert ON live_answers FOR INSERT TO portal_app
    WITH CHECK (EXISTS (SELECT 1 FROM live_participants p WHERE p.id = participant_id AND p.event_id = live_answers.event_id
                        AND (p.user_id = app_user_id() OR p.guest_key = app_guest_key())));

-- Results are a public scoreboard (nicknames and points only), written by the host's side.
CREATE POLICY event_results_read ON event_results FOR SELECT TO portal_app USING (true);
CREATE POLICY event_results_write ON event_results FOR INSERT TO portal_app WITH CHECK (live_is_host(event_id));

GRANT SELECT, INSERT ON live_events TO portal_app;
GRANT UPDATE (starts_at, ended_at) ON live_events TO portal_app;
GRANT SELECT, INSERT ON live_participants, live_answers, event_results TO portal_app;

GRANT EXECUTE ON FUNCTION live_is_host(uuid) TO portal_app;

