CREATE OR REPLACE FUNCTION public.lti_score_failed(p_session uuid, p_error text)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE public.lti_score_outbox
    SET attempts = attempts + 1, last_error = left(p_error, 500),
        next_attempt_at = public.app_now() + least(interval '1 hour', interval '30 seconds' * power(2, least(attempts, 10)))
    WHERE session_id = p_session AND sent_at IS NULL
$function$;
ALTER FUNCTION lti_score_failed(p_session uuid, p_error text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION lti_score_failed(p_session uuid, p_error text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_score_failed(p_session uuid, p_error text) TO portal_app;
