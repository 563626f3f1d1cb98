-- The caller's running mock exam (their own, or their guest cookie's), ended now because they
-- chose to start another: scored as it stands (finish_study_session) and marked set aside, so
-- the questions' statistics do not take it as their first attempt. False when it is not the
-- caller's, not a mock exam, or already ended.
CREATE OR REPLACE FUNCTION public.study_session_set_aside(p_session uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
    guest bytea := public.app_guest_key();
BEGIN
    UPDATE public.study_sessions s SET set_aside = true
    WHERE s.id = p_session AND s.mode = 'mock' AND s.finished_at IS NULL
      AND ((s.user_id IS NOT NULL AND s.user_id = me) OR (s.user_id IS NULL AND me IS NULL AND s.guest_key = guest));
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    RETURN public.finish_study_session(p_session, public.app_now());
END
$function$;
ALTER FUNCTION study_session_set_aside(p_session uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION study_session_set_aside(p_session uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION study_session_set_aside(p_session uuid) TO portal_app;
