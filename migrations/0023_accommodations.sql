-- Accommodations: more time for a student's mock exams and assignments, as schools give it. A
-- teacher sets it for a student currently in one of their classes, an admin for anyone; every
-- change is audited. The database's deadline applies it: a mock exam's deadline is its start
-- plus the exam's time limit times the multiplier, plus the extra minutes.

CREATE TABLE accommodations (
    student_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    time_multiplier numeric(3, 2) NOT NULL DEFAULT 1 CHECK (time_multiplier IN (1, 1.25, 1.5, 2)),
    extra_minutes integer NOT NULL DEFAULT 0 CHECK (extra_minutes BETWEEN 0 AND 240),
    set_by uuid REFERENCES users(id) ON DELETE SET NULL,
    set_at timestamptz NOT NULL
);
ALTER TABLE accommodations ENABLE ROW LEVEL SECURITY;
ALTER TABLE accommodations FORCE ROW LEVEL SECURITY;

-- The app reads: a student their own, a teacher their classes' students', an admin all. Only
-- set_accommodation writes.
GRANT SELECT ON accommodations TO portal_app;
CREATE POLICY accommodations_own ON accommodations FOR SELECT TO portal_app USING (student_id = (SELECT app_user_id()));
CREATE POLICY accommodations_of_students ON accommodations FOR SELECT TO portal_app
    USING (student_id = ANY ((SELECT app_students())::uuid[]));
CREATE POLICY accommodations_admin ON accommodations FOR SELECT TO portal_app USING ((SELECT app_role()) = 'admin');
GRANT SELECT, INSERT, UPDATE, DELETE ON accommodations TO portal_auth;
CREATE POLICY accommodations_auth ON accommodations TO portal_auth USING (true) WITH CHECK (true);

-- Sets a student's accommodation (1 and 0 remove it). Only a teacher of a class the student is
-- in now, or an admin; the audit entry and the student's new data version (their pages and
-- their classes' pages show it) are written in the same statement. False for an unknown student.
CREATE FUNCTION set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    me uuid := public.app_user_id();
    role text := public.app_role();
    student text;
    before record;
    stamp bigint := pg_catalog.pg_current_xact_id()::text::bigint;
BEGIN
    IF me IS NULL OR NOT (role = 'admin' OR (role = 'teacher' AND p_student = ANY (public.app_students()))) THEN
        RAISE EXCEPTION 'only a teacher of the student''s class or an admin sets accommodations' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_multiplier IS NULL OR p_multiplier NOT IN (1, 1.25, 1.5, 2) OR p_extra_minutes IS NULL OR p_extra_minutes NOT BETWEEN 0 AND 240 THEN
        RAISE EXCEPTION 'a time multiplier is 1, 1.25, 1.5 or 2, and extra minutes 0 to 240' USING ERRCODE = 'check_violation';
    END IF;
    SELECT u.username INTO student FROM public.users u WHERE u.id = p_student;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    SELECT a.time_multiplier, a.extra_minutes INTO before FROM public.accommodations a WHERE a.student_id = p_student FOR UPDATE;
    IF COALESCE(before.time_multiplier, 1) = p_multiplier AND COALESCE(before.extra_minutes, 0) = p_extra_minutes THEN
        RETURN true;
    END IF;
    IF p_multiplier = 1 AND p_extra_minutes = 0 THEN
        DELETE FROM public.accommodations WHERE student_id = p_student;
    ELSE
        INSERT INTO public.accommodations (student_id, time_multiplier, extra_minutes, set_by, set_at)
        VALUES (p_student, p_multiplier, p_extra_minutes, me, public.app_now())
        ON CONFLICT (student_id) DO UPDATE
        SET time_multiplier = EXCLUDED.time_multiplier, extra_minutes = EXCLUDED.extra_minutes, set_by = EXCLUDED.set_by, set_at = EXCLUDED.set_at;
    END IF;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT public.app_now(), me, u.display_name, 'accommodation.change', student,
           pg_catalog.jsonb_build_object('multiplier_before', COALESCE(before.time_multiplier, 1), 'multiplier', p_multiplier,
                                         'extra_minutes_before', COALESCE(before.extra_minutes, 0), 'extra_minutes', p_extra_minutes)
    FROM public.users u WHERE u.id = me;
    UPDATE public.users SET data_version = stamp WHERE id = p_student AND data_version <> stamp;
    PERFORM pg_catalog.pg_notify('portal_readers', p_student::text || ':' || stamp);
    RETURN true;
END
$$;

CREATE POLICY audit_log_accommodation_change ON audit_log FOR INSERT TO portal_auth WITH CHECK (action = 'accommodation.change');

GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION set_accommodation(uuid, numeric, integer) OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION set_accommodation(uuid, numeric, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION set_accommodation(uuid, numeric, integer) TO portal_app;

-- A new session, as before, its mock exam deadline with the student's accommodation (read as
-- the caller: their own row; a session for anyone else is refused by its policy after this).
CREATE OR REPLACE FUNCTION study_sessions_admit() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    now_at timestamptz := public.app_now();
    limit_seconds integer;
    usable integer;
    accommodation record;
BEGIN
    IF NEW.finished_at IS NOT NULL OR NEW.score_correct IS NOT NULL OR NEW.score_percent IS NOT NULL OR NEW.passed IS NOT NULL THEN
        RAISE EXCEPTION 'a study session begins unfinished and unscored' USING ERRCODE = 'check_violation';
    END IF;
    NEW.flagged := '{}';
    SELECT e.time_limit_s INTO limit_seconds FROM public.exams e WHERE e.id = NEW.exam_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no such exam' USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF NEW.started_at > now_at + interval '5 minutes' THEN
        RAISE EXCEPTION 'a study session cannot begin in the future' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.mode = 'mock' THEN
        IF NEW.started_at < now_at - interval '5 minutes' THEN
            RAISE EXCEPTION 'a mock exam begins now' USING ERRCODE = 'check_violation';
        END IF;
        SELECT a.time_multiplier, a.extra_minutes INTO accommodation FROM public.accommodations a WHERE a.student_id = NEW.user_id;
        IF FOUND THEN
            limit_seconds := (round(limit_seconds * accommodation.time_multiplier) + 60 * accommodation.extra_minutes)::integer;
        END IF;
        NEW.deadline_at := NEW.started_at + make_interval(secs => limit_seconds);
    ELSE
        NEW.deadline_at := NULL;
    END IF;
    SELECT count(DISTINCT q.id) INTO usable
    FROM unnest(NEW.question_ids) AS item(id)
    JOIN public.questions q ON q.id = item.id AND q.status = 'published' AND q.deleted_at IS NULL AND (NEW.mode = 'mock' OR NOT q.exam_only)
    JOIN public.domains d ON d.id = q.domain_id AND d.exam_id = NEW.exam_id;
    IF usable <> cardinality(NEW.question_ids) THEN
        RAISE EXCEPTION 'a study session holds only published questions of its exam, each once' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.share_link_id IS NOT NULL AND NOT public.share_link_admits(NEW.share_link_id, NEW.exam_id, NEW.mode) THEN
        RAISE EXCEPTION 'the share link does not offer this session' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
