CREATE OR REPLACE FUNCTION public.set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer, p_extra_attempts integer, p_reads_aloud boolean)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
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
       OR p_extra_attempts IS NULL OR p_extra_attempts NOT BETWEEN 0 AND 5 OR p_reads_aloud IS NULL THEN
        RAISE EXCEPTION 'a time multiplier is 1, 1.25, 1.5 or 2, extra minutes 0 to 240, and extra attempts 0 to 5' USING ERRCODE = 'check_violation';
    END IF;
    SELECT u.username INTO student FROM public.users u WHERE u.id = p_student;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    SELECT a.time_multiplier, a.extra_minutes, a.extra_attempts, a.reads_aloud INTO before FROM public.accommodations a WHERE a.student_id = p_student FOR UPDATE;
    IF COALESCE(before.time_multiplier, 1) = p_multiplier AND COALESCE(before.extra_minutes, 0) = p_extra_minutes
       AND COALESCE(before.extra_attempts, 0) = p_extra_attempts AND COALESCE(before.reads_aloud, false) = p_reads_aloud THEN
        RETURN true;
    END IF;
    IF p_multiplier = 1 AND p_extra_minutes = 0 AND p_extra_attempts = 0 AND NOT p_reads_aloud THEN
        DELETE FROM public.accommodations WHERE student_id = p_student;
    ELSE
        INSERT INTO public.accommodations (student_id, time_multiplier, extra_minutes, extra_attempts, reads_aloud, set_by, set_at)
        VALUES (p_student, p_multiplier, p_extra_minutes, p_extra_attempts, p_reads_aloud, me, public.app_now())
        ON CONFLICT (student_id) DO UPDATE
        SET time_multiplier = EXCLUDED.time_multiplier, extra_minutes = EXCLUDED.extra_minutes, extra_attempts = EXCLUDED.extra_attempts,
            reads_aloud = EXCLUDED.reads_aloud, set_by = EXCLUDED.set_by, set_at = EXCLUDED.set_at;
    END IF;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT public.app_now(), me, u.display_name, 'accommodation.change', student,
           pg_catalog.jsonb_build_object('multiplier_before', COALESCE(before.time_multiplier, 1), 'multiplier', p_multiplier,
                                         'extra_minutes_before', COALESCE(before.extra_minutes, 0), 'extra_minutes', p_extra_minutes,
                                         'extra_attempts_before', COALESCE(before.extra_attempts, 0), 'extra_attempts', p_extra_attempts,
                                         'reads_aloud_before', COALESCE(before.reads_aloud, false), 'reads_aloud', p_reads_aloud)
    FROM public.users u WHERE u.id = me;
    UPDATE public.users SET data_version = stamp WHERE id = p_student AND data_version <> stamp;
    PERFORM pg_catalog.pg_notify('portal_readers', p_student::text || ':' || stamp);
    -- Read-aloud comes with the student's session: every instance drops its copy of it.
    IF COALESCE(before.reads_aloud, false) <> p_reads_aloud THEN
        PERFORM pg_catalog.pg_notify('portal_sessions', 'user:' || p_student::text);
    END IF;
    RETURN true;
END
$function$;
ALTER FUNCTION set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer, p_extra_attempts integer, p_reads_aloud boolean) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer, p_extra_attempts integer, p_reads_aloud boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION set_accommodation(p_student uuid, p_multiplier numeric, p_extra_minutes integer, p_extra_attempts integer, p_reads_aloud boolean) TO portal_app;
