-- Finishing a graded session queues its score (the percentage, out of 100).
CREATE OR REPLACE FUNCTION public.lti_queue_score()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    INSERT INTO public.lti_score_outbox (session_id, platform_id, lineitem_url, subject, score_given, score_maximum, finished_at, next_attempt_at)
    SELECT g.session_id, g.platform_id, g.lineitem_url, g.subject, NEW.score_percent, 100, NEW.finished_at, public.app_now()
    FROM public.lti_graded_sessions g WHERE g.session_id = NEW.id
    ON CONFLICT (session_id) DO NOTHING;
    RETURN NULL;
END
$function$;
ALTER FUNCTION lti_queue_score() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION lti_queue_score() FROM PUBLIC;
