-- Resolves a session cookie's token to its user, ending the session when it has been idle too
-- long, is too old, or its account is disabled. Touches last_seen_at at most once a minute.
-- The server's time may run ahead of the database's (tests), never behind it. Read-aloud is on by
-- the reader's own setting or their teacher's accommodation.
CREATE OR REPLACE FUNCTION public.auth_resolve_session(p_token text, p_now timestamp with time zone, p_idle interval, p_absolute interval)
 RETURNS TABLE(session_id uuid, user_id uuid, role text, display_name text, csrf_token text, locale text, time_zone text, color_scheme text, hides_readings boolean, reads_aloud boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := greatest(p_now, public.app_now());
    hit record;
BEGIN
    SELECT s.id, s.user_id, s.created_at, s.last_seen_at, s.csrf_token, u.role, u.display_name, u.locale, u.time_zone, u.color_scheme, u.hides_readings,
           u.reads_aloud OR EXISTS (SELECT 1 FROM public.accommodations a WHERE a.student_id = u.id AND a.reads_aloud) AS reads_aloud, u.disabled_at
      INTO hit
      FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
     WHERE s.token_hash = sha256(convert_to(p_token, 'UTF8'));
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF hit.disabled_at IS NOT NULL OR now_at - hit.last_seen_at > p_idle OR now_at - hit.created_at > p_absolute THEN
        DELETE FROM public.auth_sessions WHERE id = hit.id;
        RETURN;
    END IF;
    IF now_at - hit.last_seen_at > interval '1 minute' THEN
        UPDATE public.auth_sessions SET last_seen_at = now_at WHERE id = hit.id;
    END IF;
    RETURN QUERY SELECT hit.id, hit.user_id, hit.role, hit.display_name, hit.csrf_token, hit.locale, hit.time_zone, hit.color_scheme, hit.hides_readings, hit.reads_aloud;
END
$function$;
ALTER FUNCTION auth_resolve_session(p_token text, p_now timestamp with time zone, p_idle interval, p_absolute interval) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_resolve_session(p_token text, p_now timestamp with time zone, p_idle interval, p_absolute interval) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_resolve_session(p_token text, p_now timestamp with time zone, p_idle interval, p_absolute interval) TO portal_app;
