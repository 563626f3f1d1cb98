-- Takes a handoff: its session now answers to `p_token` (the new window's cookie) and the
-- location to open comes back; NULL when the token is unknown, used, older than five minutes,
-- from another browser, or its session has ended.
CREATE OR REPLACE FUNCTION public.lti_take_handoff(p_handoff text, p_browser bytea, p_token text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    taken record;
BEGIN
    DELETE FROM public.lti_handoffs WHERE token_hash IN (
        SELECT h.token_hash FROM public.lti_handoffs h WHERE h.created_at < now_at - interval '1 day' LIMIT 20);
    UPDATE public.lti_handoffs h SET used_at = now_at
    WHERE h.token_hash = sha256(convert_to(p_handoff, 'UTF8')) AND h.used_at IS NULL
    RETURNING h.* INTO taken;
    IF NOT FOUND OR taken.created_at < now_at - interval '5 minutes' OR taken.browser_hash <> p_browser THEN
        RETURN NULL;
    END IF;
    UPDATE public.auth_sessions s SET token_hash = sha256(convert_to(p_token, 'UTF8')), last_seen_at = now_at
    WHERE s.token_hash = taken.session_hash;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    RETURN taken.location;
END
$function$;
ALTER FUNCTION lti_take_handoff(p_handoff text, p_browser bytea, p_token text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION lti_take_handoff(p_handoff text, p_browser bytea, p_token text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_take_handoff(p_handoff text, p_browser bytea, p_token text) TO portal_app;
