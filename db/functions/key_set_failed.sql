-- A fetch that failed: the reason kept (the admin pages show it) and the set left as it was.
CREATE OR REPLACE FUNCTION public.key_set_failed(p_jwks_uri text, p_problem text)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE public.key_sets s SET failed_at = public.app_now(), problem = left(p_problem, 500), leased_until = NULL WHERE s.jwks_uri = p_jwks_uri
$function$;
REVOKE ALL ON FUNCTION key_set_failed(p_jwks_uri text, p_problem text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION key_set_failed(p_jwks_uri text, p_problem text) TO portal_agent;
