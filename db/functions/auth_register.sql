-- Registering: always a student, signed in at once with the token's session, the day their own
-- from the start: the zone the form sent (the browser's, or the one chosen from the list) when
-- PostgreSQL knows it, confirmed; else UTC, left for the dashboard to ask about. NULL when the
-- username is taken.
CREATE OR REPLACE FUNCTION public.auth_register(p_username text, p_display_name text, p_password_hash text, p_token text, p_csrf text, p_user_agent text, p_time_zone text)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    known boolean := length(p_time_zone) <= 64 AND EXISTS (SELECT 1 FROM pg_catalog.pg_timezone_names z WHERE z.name = p_time_zone);
    created uuid;
BEGIN
    INSERT INTO public.users (username, display_name, password_hash, time_zone, time_zone_confirmed)
    VALUES (p_username, p_display_name, p_password_hash, CASE WHEN known THEN p_time_zone ELSE 'UTC' END, coalesce(known, false))
    ON CONFLICT (lower(username)) DO NOTHING
    RETURNING id INTO created;
    IF created IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM public.auth_open_session(created, p_token, p_csrf, p_user_agent, now_at);
    RETURN created;
END
$function$;
ALTER FUNCTION auth_register(p_username text, p_display_name text, p_password_hash text, p_token text, p_csrf text, p_user_agent text, p_time_zone text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_register(p_username text, p_display_name text, p_password_hash text, p_token text, p_csrf text, p_user_agent text, p_time_zone text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_register(p_username text, p_display_name text, p_password_hash text, p_token text, p_csrf text, p_user_agent text, p_time_zone text) TO portal_app;
