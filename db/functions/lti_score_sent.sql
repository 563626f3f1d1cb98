CREATE OR REPLACE FUNCTION public.lti_score_sent(p_session uuid)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE public.lti_score_outbox SET sent_at = public.app_now(), last_error = NULL WHERE session_id = p_session AND sent_at IS NULL
$function$;
ALTER FUNCTION lti_score_sent(p_session uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION lti_score_sent(p_session uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_score_sent(p_session uuid) TO portal_app;
