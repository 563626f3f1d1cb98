-- A login begun (`/lti/login`): at most 60 a minute from one address and 20,000 live in all.
-- Returns 0 when the state is kept, else the seconds to wait.
CREATE OR REPLACE FUNCTION public.lti_begin_login(p_state_hash bytea, p_nonce text, p_platform bigint, p_target text, p_cookie bytea, p_agent bytea, p_storage_target text, p_client text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    wait integer;
BEGIN
    wait := public.rate_limit('lti_login', p_client, 60, 60, true);
    IF wait = 0 THEN
        wait := public.rate_limit('lti_login_all', '', 20000, 600, true);
    END IF;
    IF wait > 0 THEN
        RETURN wait;
    END IF;
    INSERT INTO public.lti_states (state_hash, nonce, platform_id, target_link_uri, browser_hash, cookie_hash, storage_target, created_at)
    VALUES (p_state_hash, p_nonce, p_platform, p_target, p_agent, p_cookie, p_storage_target, public.app_now());
    RETURN 0;
END
$function$;
ALTER FUNCTION lti_begin_login(p_state_hash bytea, p_nonce text, p_platform bigint, p_target text, p_cookie bytea, p_agent bytea, p_storage_target text, p_client text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION lti_begin_login(p_state_hash bytea, p_nonce text, p_platform bigint, p_target text, p_cookie bytea, p_agent bytea, p_storage_target text, p_client text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_begin_login(p_state_hash bytea, p_nonce text, p_platform bigint, p_target text, p_cookie bytea, p_agent bytea, p_storage_target text, p_client text) TO portal_app;
