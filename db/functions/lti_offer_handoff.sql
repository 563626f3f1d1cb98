-- Offers the caller's own current session (the one its cookie token names) to a new window:
-- the app names neither a session nor a user.
CREATE OR REPLACE FUNCTION public.lti_offer_handoff(p_handoff text, p_browser bytea, p_location text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    current_hash bytea := sha256(convert_to(coalesce(current_setting('app.session_token', true), ''), 'UTF8'));
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.auth_sessions s WHERE s.token_hash = current_hash) THEN
        RETURN false;
    END IF;
    INSERT INTO public.lti_handoffs (token_hash, session_hash, browser_hash, location, created_at)
    VALUES (sha256(convert_to(p_handoff, 'UTF8')), current_hash, p_browser, p_location, public.app_now());
    RETURN true;
END
$function$;
ALTER FUNCTION lti_offer_handoff(p_handoff text, p_browser bytea, p_location text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION lti_offer_handoff(p_handoff text, p_browser bytea, p_location text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_offer_handoff(p_handoff text, p_browser bytea, p_location text) TO portal_app;
