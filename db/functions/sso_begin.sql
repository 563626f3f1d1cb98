-- A sign-in begun (`/auth/{provider}`): at most 30 a minute from one address and 20,000 live in
-- all; a link is begun only by the signed-in user it links. 0 when kept, else seconds to wait.
CREATE OR REPLACE FUNCTION public.sso_begin(p_state_hash bytea, p_provider bigint, p_nonce text, p_verifier text, p_browser bytea, p_linking boolean, p_return_to text, p_client text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    wait integer;
BEGIN
    IF p_linking AND public.app_user_id() IS NULL THEN
        RAISE EXCEPTION 'a link is begun by a signed-in user' USING ERRCODE = '42501';
    END IF;
    wait := public.rate_limit('sso_begin', p_client, 30, 60, true);
    IF wait = 0 THEN
        wait := public.rate_limit('sso_begin_all', '', 20000, 600, true);
    END IF;
    IF wait > 0 THEN
        RETURN wait;
    END IF;
    INSERT INTO public.sso_states (state_hash, provider_id, nonce, verifier, browser_hash, link_user, return_to, created_at)
    VALUES (p_state_hash, p_provider, p_nonce, p_verifier, p_browser, CASE WHEN p_linking THEN public.app_user_id() END, p_return_to, public.app_now());
    RETURN 0;
END
$function$;
ALTER FUNCTION sso_begin(p_state_hash bytea, p_provider bigint, p_nonce text, p_verifier text, p_browser bytea, p_linking boolean, p_return_to text, p_client text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION sso_begin(p_state_hash bytea, p_provider bigint, p_nonce text, p_verifier text, p_browser bytea, p_linking boolean, p_return_to text, p_client text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sso_begin(p_state_hash bytea, p_provider bigint, p_nonce text, p_verifier text, p_browser bytea, p_linking boolean, p_return_to text, p_client text) TO portal_app;
