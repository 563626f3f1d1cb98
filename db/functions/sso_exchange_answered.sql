-- The agent's answer to an exchange: the id_token the provider gave, or why there is none.
CREATE OR REPLACE FUNCTION public.sso_exchange_answered(p_state_hash bytea, p_id_token text, p_problem text)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE public.sso_exchanges x SET id_token = p_id_token, problem = left(p_problem, 500), answered_at = public.app_now(), leased_until = NULL
    WHERE x.state_hash = p_state_hash AND x.answered_at IS NULL
$function$;
REVOKE ALL ON FUNCTION sso_exchange_answered(p_state_hash bytea, p_id_token text, p_problem text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sso_exchange_answered(p_state_hash bytea, p_id_token text, p_problem text) TO portal_agent;
