-- The study leaderboard (DESIGN §4): a materialized view over finished sessions' answers,
-- refreshed CONCURRENTLY by whichever server instance takes the advisory lock first. No score
-- column is ever incremented.
--
-- The view belongs to portal_leaderboard, a role that cannot log in and reads, through its own
-- policies, only finished sessions and only students who chose to appear. portal_app cannot
-- read the view at all: it calls a few SECURITY DEFINER functions that return the public
-- columns (rank, display name, points, sessions, accuracy) and whether a row is the caller's.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'portal_leaderboard') THEN
        CREATE ROLE portal_leaderboard NOLOGIN NOSUPERUSER NOBYPASSRLS;
    END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END
$$;
DO $$ BEGIN EXECUTE format('GRANT portal_leaderboard TO %I', current_user); END $$;
GRANT USAGE ON SCHEMA public TO portal_leaderboard;

-- Pupils' privacy: only students who turned "show me on leaderboards" on (it is off by
-- default) and whose account is active are visible to the leaderboard at all.
CREATE POLICY users_leaderboard ON users FOR SELECT TO portal_leaderboard
    USING (show_on_leaderboard AND disabled_at IS NULL);
CREATE POLICY study_sessions_leaderboard ON study_sessions FOR SELECT TO portal_leaderboard
    USING (finished_at IS NOT NULL AND user_id IS NOT NULL);
CREATE POLICY answers_leaderboard ON answers FOR SELECT TO portal_leaderboard
    USING (user_id IS NOT NULL);
-- Points earned stay earned when a question is later retired.
CREATE POLICY questions_leaderboard ON questions FOR SELECT TO portal_leaderboard USING (true);
GRANT SELECT (id, display_name, show_on_leaderboard, disabled_at) ON users TO portal_leaderboard;
GRANT SELECT ON study_sessions, answers, questions, domains TO portal_leaderboard;

-- When the view was refreshed, and how long it took.
CREATE TABLE leaderboard_refreshes (
    refreshed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    duration_ms integer NOT NULL,
    entries bigint NOT NULL,
    instance text NOT NULL DEFAULT ''
);
CREATE INDEX leaderboard_refreshes_latest ON leaderboard_refreshes (refreshed_at DESC);
GRANT SELECT, INSERT ON leaderboard_refreshes TO portal_leaderboard;

-- Points: each right answer scores 10 × its difficulty, and a question scores at most once per
-- student per UTC day (replaying an easy session farms nothing). In a finished session the
-- final answer to each question is the one that counts. Two periods: all time, and the current
-- ISO week (Monday 00:00 UTC onwards, as of the refresh).
CREATE MATERIALIZED VIEW leaderboard_entries AS
WITH final_answers AS (
    SELECT DISTINCT ON (a.session_id, a.question_id)
           a.session_id, a.user_id, a.question_id, a.correct, a.answered_at
    FROM answers a JOIN study_sessions s ON s.id = a.session_id
    ORDER BY a.session_id, a.question_id, a.answered_at DESC, a.received_at DESC, a.id
), facts AS (
    SELECT f.session_id, f.user_id, f.question_id, f.correct, f.answered_at, d.exam_id, q.difficulty,
           (f.answered_at AT TIME ZONE 'UTC')::date AS day
    FROM final_answers f JOIN questions q ON q.id = f.question_id JOIN domains d ON d.id = q.domain_id
), periods AS (
    SELECT 'all'::text AS period, facts.* FROM facts
    UNION ALL
    SELECT 'week'::text, facts.* FROM facts
    WHERE facts.answered_at >= date_trunc('week', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
), points AS (
    SELECT period, exam_id, user_id, sum(10 * difficulty)::bigint AS points
    FROM (SELECT DISTINCT period, exam_id, user_id, question_id, day, difficulty FROM periods WHERE correct) AS scored
    GROUP BY period, exam_id, user_id
), activity AS (
    SELECT period, exam_id, user_id, count(DISTINCT session_id) AS sessions, count(*) AS answered,
           count(*) FILTER (WHERE correct) AS correct
    FROM periods GROUP BY period, exam_id, user_id
)
SELECT a.period, a.exam_id, a.user_id, u.display_name, coalesce(p.points, 0) AS points, a.sessions, a.answered, a.correct,
       rank() OVER (PARTITION BY a.period, a.exam_id ORDER BY coalesce(p.points, 0) DESC) AS rank,
       row_number() OVER (PARTITION BY a.period, a.exam_id
                          ORDER BY coalesce(p.points, 0) DESC, a.correct DESC, u.display_name, a.user_id) AS place
FROM activity a
JOIN users u ON u.id = a.user_id
LEFT JOIN points p ON p.period = a.period AND p.exam_id = a.exam_id AND p.user_id = a.user_id
WITH NO DATA;
CREATE UNIQUE INDEX leaderboard_entries_key ON leaderboard_entries (period, exam_id, user_id);
CREATE INDEX leaderboard_entries_position ON leaderboard_entries (exam_id, period, place);

-- The freshest refresh, for "updated 3 minutes ago".
CREATE FUNCTION leaderboard_refreshed_at() RETURNS timestamptz
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT max(refreshed_at) FROM leaderboard_refreshes
$$;

-- Refreshes the view unless another instance is refreshing it right now (the advisory lock)
-- or did so less than p_every ago; true when this call refreshed. Readers are never blocked
-- (CONCURRENTLY), so every instance may call it on its own schedule.
CREATE FUNCTION leaderboard_refresh(p_every interval, p_instance text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    started timestamptz := clock_timestamp();
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('study-portal leaderboard refresh')) THEN
        RETURN false;
    END IF;
    IF EXISTS (SELECT 1 FROM leaderboard_refreshes WHERE refreshed_at > clock_timestamp() - p_every) THEN
        RETURN false;
    END IF;
    REFRESH MATERIALIZED VIEW CONCURRENTLY leaderboard_entries;
    -- Fresh statistics, so a student's own row is found through the key, not by a scan.
    ANALYZE leaderboard_entries;
    INSERT INTO leaderboard_refreshes (refreshed_at, duration_ms, entries, instance)
    VALUES (clock_timestamp(), (extract(epoch FROM clock_timestamp() - started) * 1000)::integer,
            (SELECT count(*) FROM leaderboard_entries), left(p_instance, 100));
    RETURN true;
END
$$;

-- A page of one exam's board: public columns only, and whether the row is the caller's.
CREATE FUNCTION leaderboard_page(p_exam bigint, p_period text, p_offset integer, p_limit integer)
    RETURNS TABLE (place bigint, rank bigint, display_name text, points bigint, sessions bigint, answered bigint,
                   correct bigint, is_viewer boolean)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT e.place, e.rank, e.display_name, e.points, e.sessions, e.answered, e.correct, coalesce(e.user_id = app_user_id(), false)
    FROM leaderboard_entries e
    WHERE e.exam_id = p_exam AND e.period = p_period
      AND e.place > greatest(p_offset, 0) AND e.place <= greatest(p_offset, 0) + least(greatest(p_limit, 0), 100)
    ORDER BY e.place
$$;

-- The caller's own row and up to p_radius neighbours either side, wherever they stand.
CREATE FUNCTION leaderboard_around_viewer(p_exam bigint, p_period text, p_radius integer)
    RETURNS TABLE (place bigint, rank bigint, display_name text, points bigint, sessions bigint, answered bigint,
                   correct bigint, is_viewer boolean)
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    mine bigint;
    radius integer := least(greatest(p_radius, 0), 10);
BEGIN
    SELECT m.place INTO mine FROM leaderboard_entries m
    WHERE m.exam_id = p_exam AND m.period = p_period AND m.user_id = app_user_id();
    IF mine IS NULL THEN
        RETURN;
    END IF;
    RETURN QUERY
        SELECT e.place, e.rank, e.display_name, e.points, e.sessions, e.answered, e.correct, e.user_id = app_user_id()
        FROM leaderboard_entries e
        WHERE e.exam_id = p_exam AND e.period = p_period AND e.place BETWEEN mine - radius AND mine + radius
        ORDER BY e.place;
END
$$;

-- How many students one exam's board holds.
CREATE FUNCTION leaderboard_size(p_exam bigint, p_period text) RETURNS bigint
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    -- Places run 1…n without gaps, so the last place is the count: one index probe.
    SELECT coalesce(max(e.place), 0) FROM leaderboard_entries e WHERE e.exam_id = p_exam AND e.period = p_period
$$;

-- Handing objects to a role needs that role to have CREATE on the schema, for a moment.
GRANT CREATE ON SCHEMA public TO portal_leaderboard;
ALTER MATERIALIZED VIEW leaderboard_entries OWNER TO portal_leaderboard;
ALTER FUNCTION leaderboard_refreshed_at() OWNER TO portal_leaderboard;
ALTER FUNCTION leaderboard_refresh(interval, text) OWNER TO portal_leaderboard;
ALTER FUNCTION leaderboard_page(bigint, text, integer, integer) OWNER TO portal_leaderboard;
ALTER FUNCTION leaderboard_around_viewer(bigint, text, integer) OWNER TO portal_leaderboard;
ALTER FUNCTION leaderboard_size(bigint, text) OWNER TO portal_leaderboard;
REVOKE CREATE ON SCHEMA public FROM portal_leaderboard;

REVOKE ALL ON leaderboard_entries FROM PUBLIC;
REVOKE ALL ON FUNCTION leaderboard_refreshed_at(), leaderboard_refresh(interval, text),
    leaderboard_page(bigint, text, integer, integer), leaderboard_around_viewer(bigint, text, integer),
    leaderboard_size(bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION leaderboard_refreshed_at(), leaderboard_refresh(interval, text),
    leaderboard_page(bigint, text, integer, integer), leaderboard_around_viewer(bigint, text, integer),
    leaderboard_size(bigint, text) TO portal_app;

-- Populated once now, so the first CONCURRENTLY refresh has something to compare against.
REFRESH MATERIALIZED VIEW leaderboard_entries;
ANALYZE leaderboard_entries;
