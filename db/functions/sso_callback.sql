-- The provider's answer (`/auth/{provider}/callback`): the state taken once, from the browser
-- that began it (its cookie's hash) and for the provider it began with, and the code queued
-- for the agent. 'ok' with whether it links and where to return; else 'unknown', 'used',
-- 'expired', 'other_browser', 'wrong_provider'.
CREATE OR REPLACE FUNCTION public.sso_callback(p_state text, p_browser bytea, p_provider bigint, p_code text, p_redirect_uri text)
 RETURNS TABLE(outcome text, linking boolean, return_to text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    taken record;
BEGIN
    SELECT s.* INTO taken FROM public.sso_states s WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'unknown', NULL::boolean, NULL::text;
        RETURN;
    END IF;
    IF taken.used_at IS NOT NULL THEN
        RETURN QUERY SELECT 'used', NULL::boolean, NULL::text;
        RETURN;
    END IF;
    UPDATE public.sso_states SET used_at = now_at WHERE state_hash = taken.state_hash;
    IF taken.created_at < now_at - interval '10 minutes' THEN
        RETURN QUERY SELECT 'expired', NULL::boolean, NULL::text;
    ELSIF taken.browser_hash <> p_browser THEN
        RETURN QUERY SELECT 'other_browser', NULL::boolean, NULL::text;
    ELSIF taken.provider_id <> p_provider THEN
        RETURN QUERY SELECT 'wrong_provider', NULL::boolean, NULL::text;
    ELSE
        INSERT INTO public.sso_exchanges (state_hash, code, redirect_uri, requested_at) VALUES (taken.state_hash, p_code, p_redirect_uri, now_at);
        PERFORM pg_notify('sso_exchanges', '');
        RETURN QUERY SELECT 'ok', taken.link_user IS NOT NULL, taken.return_to;
    END IF;
END
$function$;
ALTER FUNCTION sso_callback(p_state text, p_browser bytea, p_provider bigint, p_code text, p_redirect_uri text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION sso_callback(p_state text, p_browser bytea, p_provider bigint, p_code text, p_redirect_uri text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sso_callback(p_state text, p_browser bytea, p_provider bigint, p_code text, p_redirect_uri text) TO portal_app;
