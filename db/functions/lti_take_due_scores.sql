-- The sender's side: due scores taken for two minutes (another instance leaves them alone),
-- then marked sent or failed (the next try after 30 s, 1, 2, 4 … minutes, at most an hour).
CREATE OR REPLACE FUNCTION public.lti_take_due_scores(p_limit integer)
 RETURNS TABLE(session_id uuid, platform_id bigint, client_id text, token_url text, lineitem_url text, subject text, score_given numeric, score_maximum numeric, finished_at timestamp with time zone, attempts integer)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    WITH due AS (
        SELECT o.session_id FROM public.lti_score_outbox o
        WHERE o.sent_at IS NULL AND o.next_attempt_at <= public.app_now()
        ORDER BY o.next_attempt_at LIMIT least(greatest(p_limit, 1), 100) FOR UPDATE SKIP LOCKED
    ), taken AS (
        UPDATE public.lti_score_outbox o SET next_attempt_at = public.app_now() + interval '2 minutes'
        FROM due WHERE o.session_id = due.session_id RETURNING o.*
    )
    SELECT t.session_id, t.platform_id, p.client_id, p.token_url, t.lineitem_url, t.subject, t.score_given, t.score_maximum, t.finished_at, t.attempts
    FROM taken t JOIN public.lti_platforms p ON p.id = t.platform_id
$function$;
ALTER FUNCTION lti_take_due_scores(p_limit integer) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION lti_take_due_scores(p_limit integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_take_due_scores(p_limit integer) TO portal_app;
