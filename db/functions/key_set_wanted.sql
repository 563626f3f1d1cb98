-- A token named a key its issuer's set lacks (or the set was never fetched): asks the agent to
-- fetch it, at most every ten seconds per set, for registered sets only.
CREATE OR REPLACE FUNCTION public.key_set_wanted(p_jwks_uri text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.lti_platforms p WHERE p.jwks_url = p_jwks_uri)
       AND NOT EXISTS (SELECT 1 FROM public.sso_providers p WHERE p.jwks_uri = p_jwks_uri) THEN
        RETURN;
    END IF;
    INSERT INTO public.key_sets (jwks_uri) VALUES (p_jwks_uri) ON CONFLICT DO NOTHING;
    UPDATE public.key_sets s SET wanted_at = now_at
    WHERE s.jwks_uri = p_jwks_uri AND (s.wanted_at IS NULL OR s.wanted_at < now_at - interval '10 seconds');
    IF FOUND THEN
        PERFORM pg_notify('key_sets', '');
    END IF;
END
$function$;
ALTER FUNCTION key_set_wanted(p_jwks_uri text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION key_set_wanted(p_jwks_uri text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION key_set_wanted(p_jwks_uri text) TO portal_app;
