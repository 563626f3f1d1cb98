-- The agent's side of an exchange: the codes waiting (leased for a minute so two agents never
-- send one twice), with what the token request needs.
CREATE OR REPLACE FUNCTION public.sso_exchanges_due(p_limit integer)
 RETURNS TABLE(state_hash bytea, code text, redirect_uri text, verifier text, provider_id bigint)
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    WITH due AS (
        SELECT x.state_hash FROM public.sso_exchanges x
        WHERE x.answered_at IS NULL AND (x.leased_until IS NULL OR x.leased_until < public.app_now())
          AND x.requested_at > public.app_now() - interval '1 minute'
        ORDER BY x.requested_at LIMIT p_limit FOR UPDATE SKIP LOCKED
    ), leased AS (
        UPDATE public.sso_exchanges x SET leased_until = public.app_now() + interval '1 minute' FROM due WHERE x.state_hash = due.state_hash
        RETURNING x.state_hash, x.code, x.redirect_uri
    )
    SELECT l.state_hash, l.code, l.redirect_uri, s.verifier, s.provider_id FROM leased l JOIN public.sso_states s ON s.state_hash = l.state_hash
$function$;
REVOKE ALL ON FUNCTION sso_exchanges_due(p_limit integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sso_exchanges_due(p_limit integer) TO portal_agent;
