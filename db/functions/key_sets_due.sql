-- The key sets an agent should fetch now, each leased to it for half a minute: never fetched,
-- older than an hour, or wanted (a token named a key the set lacks) and not fetched in the last
-- ten seconds; a set whose fetch failed waits a minute before the next try.
CREATE OR REPLACE FUNCTION public.key_sets_due(p_limit integer)
 RETURNS SETOF text
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
BEGIN
    INSERT INTO public.key_sets (jwks_uri)
    SELECT p.jwks_url FROM public.lti_platforms p UNION SELECT p.jwks_uri FROM public.sso_providers p
    ON CONFLICT DO NOTHING;
    RETURN QUERY
    WITH due AS (
        SELECT s.jwks_uri FROM public.key_sets s
        WHERE (s.leased_until IS NULL OR s.leased_until < now_at)
          AND (s.failed_at IS NULL OR s.failed_at < now_at - interval '1 minute')
          AND (s.fetched_at IS NULL OR s.fetched_at < now_at - interval '1 hour'
               OR (s.wanted_at > s.fetched_at AND s.fetched_at < now_at - interval '10 seconds'))
          AND (EXISTS (SELECT 1 FROM public.lti_platforms p WHERE p.jwks_url = s.jwks_uri)
               OR EXISTS (SELECT 1 FROM public.sso_providers p WHERE p.jwks_uri = s.jwks_uri))
        ORDER BY s.wanted_at DESC NULLS LAST, s.fetched_at NULLS FIRST LIMIT p_limit
        FOR UPDATE SKIP LOCKED
    )
    UPDATE public.key_sets s SET leased_until = now_at + interval '30 seconds' FROM due WHERE s.jwks_uri = due.jwks_uri
    RETURNING s.jwks_uri;
END
$function$;
REVOKE ALL ON FUNCTION key_sets_due(p_limit integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION key_sets_due(p_limit integer) TO portal_agent;
