-- The sender's side (portal_agent): due messages taken for two minutes, so another sender
-- leaves them alone; messages done for a month are cleared as it goes.
CREATE OR REPLACE FUNCTION public.mail_take_due(p_limit integer)
 RETURNS TABLE(id uuid, recipient text, recipient_name text, locale text, subject text, text_body text, html_body text,
               link_path text, secret text, attempts integer)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    DELETE FROM public.mail_outbox o WHERE o.id IN (
        SELECT x.id FROM public.mail_outbox x
        WHERE (x.sent_at IS NOT NULL OR x.given_up_at IS NOT NULL) AND x.created_at < public.app_now() - interval '30 days' LIMIT 50);
    WITH due AS (
        SELECT o.id FROM public.mail_outbox o
        WHERE o.sent_at IS NULL AND o.given_up_at IS NULL AND o.next_attempt_at <= public.app_now()
        ORDER BY o.next_attempt_at LIMIT least(greatest(p_limit, 1), 100) FOR UPDATE SKIP LOCKED
    ), taken AS (
        UPDATE public.mail_outbox o SET next_attempt_at = public.app_now() + interval '2 minutes'
        FROM due WHERE o.id = due.id RETURNING o.*
    )
    SELECT t.id, t.recipient, t.recipient_name, t.locale, t.subject, t.text_body, t.html_body, t.link_path, t.secret, t.attempts FROM taken t
$function$;
ALTER FUNCTION mail_take_due(p_limit integer) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION mail_take_due(p_limit integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION mail_take_due(p_limit integer) TO portal_agent;
