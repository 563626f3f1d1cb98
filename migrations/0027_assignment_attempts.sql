-- Attempts: a teacher may limit how many times each student starts an assignment (a share
-- link); a student's accommodation may add extra attempts. The database counts: a session
-- from a limited link is admitted only while the student has attempts left, two starts at
-- once are counted one after the other, and a session never names a link it was not started
-- from (share_link_admits, as before).

ALTER TABLE share_links ADD COLUMN attempts integer CHECK (attempts BETWEEN 1 AND 20);
ALTER TABLE accommodations ADD COLUMN extra_attempts integer NOT NULL DEFAULT 0 CHECK (extra_attempts BETWEEN 0 AND 5);

-- The caller's attempts at a link: allowed (the link's limit plus their extra attempts; NULL
-- when the link has no limit) and used (sessions they started from it).
CREATE FUNCTION share_link_attempts(p_link uuid) RETURNS TABLE (allowed integer, used integer)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT l.attempts + coalesce((SELECT a.extra_attempts FROM public.accommodations a WHERE a.student_id = public.app_user_id()), 0),
           (SELECT count(*)::integer FROM public.study_sessions s WHERE s.share_link_id = l.id AND s.user_id = public.app_user_id())
    FROM public.share_links l WHERE l.id = p_link AND public.app_user_id() IS NOT NULL
$$;

-- Runs after study_sessions_admit (triggers fire in name order). A row for someone other than
-- the caller is left to the table's policy, which refuses it: this says nothing about them.
CREATE FUNCTION study_sessions_attempts() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    limit_attempts integer;
    extra integer;
    used integer;
BEGIN
    IF NEW.share_link_id IS NULL THEN
        RETURN NEW;
    END IF;
    SELECT l.attempts INTO limit_attempts FROM public.share_links l WHERE l.id = NEW.share_link_id;
    IF limit_attempts IS NULL THEN
        RETURN NEW;
    END IF;
    IF NEW.user_id IS NULL THEN
        RAISE EXCEPTION 'this assignment counts attempts: sign in to start it' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.user_id IS DISTINCT FROM public.app_user_id() THEN
        RETURN NEW;
    END IF;
    -- One start at a time per student and link, so two at once cannot both take the last attempt.
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(NEW.share_link_id::text || NEW.user_id::text, 0));
    SELECT coalesce((SELECT a.extra_attempts FROM public.accommodations a WHERE a.student_id = NEW.user_id), 0) INTO extra;
    SELECT count(*) INTO used FROM public.study_sessions s WHERE s.share_link_id = NEW.share_link_id AND s.user_id = NEW.user_id;
    IF used >= limit_attempts + extra THEN
        RAISE EXCEPTION 'no attempts left at this assignment' USING ERRCODE = 'check_violation', DETAIL = 'attempts';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER study_sessions_attempts BEFORE INSERT ON study_sessions FOR EACH ROW EXECUTE FUNCTION study_sessions_attempts();

-- Accommodations gain extra attempts: set_accommodation takes them (0 to 5), audited as before.
DROP FUNCTION set_accommodation(uuid, numeric, integer);
CREATE FUNCTION set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer, p_extra_attempts integer) RETURNS boolean
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
    IF p_multiplier IS NULL OR p_multiplier NOT IN (1, 1.25, 1.5, 2) OR p_extra_minutes IS NULL OR p_extra_minutes NOT BETWEEN 0 AND 240
       OR p_extra_attempts IS NULL OR p_extra_attempts NOT BETWEEN 0 AND 5 THEN
        RAISE EXCEPTION 'a time multiplier is 1, 1.25, 1.5 or 2, extra minutes 0 to 240, and extra attempts 0 to 5' USING ERRCODE = 'check_violation';
    END IF;
    SELECT u.username INTO student FROM public.users u WHERE u.id = p_student;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    SELECT a.time_multiplier, a.extra_minutes, a.extra_attempts INTO before FROM public.accommodations a WHERE a.student_id = p_student FOR UPDATE;
    IF COALESCE(before.time_multiplier, 1) = p_multiplier AND COALESCE(before.extra_minutes, 0) = p_extra_minutes
       AND COALESCE(before.extra_attempts, 0) = p_extra_attempts THEN
        RETURN true;
    END IF;
    IF p_multiplier = 1 AND p_extra_minutes = 0 AND p_extra_attempts = 0 THEN
        DELETE FROM public.accommodations WHERE student_id = p_student;
    ELSE
        INSERT INTO public.accommodations (student_id, time_multiplier, extra_minutes, extra_attempts, set_by, set_at)
        VALUES (p_student, p_multiplier, p_extra_minutes, p_extra_attempts, me, public.app_now())
        ON CONFLICT (student_id) DO UPDATE
        SET time_multiplier = EXCLUDED.time_multiplier, extra_minutes = EXCLUDED.extra_minutes, extra_attempts = EXCLUDED.extra_attempts,
            set_by = EXCLUDED.set_by, set_at = EXCLUDED.set_at;
    END IF;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT public.app_now(), me, u.display_name, 'accommodation.change', student,
           pg_catalog.jsonb_build_object('multiplier_before', COALESCE(before.time_multiplier, 1), 'multiplier', p_multiplier,
                                         'extra_minutes_before', COALESCE(before.extra_minutes, 0), 'extra_minutes', p_extra_minutes,
                                         'extra_attempts_before', COALESCE(before.extra_attempts, 0), 'extra_attempts', p_extra_attempts)
    FROM public.users u WHERE u.id = me;
    UPDATE public.users SET data_version = stamp WHERE id = p_student AND data_version <> stamp;
    PERFORM pg_catalog.pg_notify('portal_readers', p_student::text || ':' || stamp);
    RETURN true;
END
$$;

GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION set_accommodation(uuid, numeric, integer, integer) OWNER TO portal_auth;
ALTER FUNCTION share_link_attempts(uuid) OWNER TO portal_auth;
ALTER FUNCTION study_sessions_attempts() OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION set_accommodation(uuid, numeric, integer, integer), share_link_attempts(uuid), study_sessions_attempts() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION set_accommodation(uuid, numeric, integer, integer), share_link_attempts(uuid) TO portal_app;
