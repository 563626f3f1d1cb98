-- A message the server accepted: marked sent, its link's token and bodies erased (what was
-- sent is the recipient's; the outbox keeps only that it went).
CREATE OR REPLACE FUNCTION public.mail_sent(p_id uuid)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE public.mail_outbox SET sent_at = public.app_now(), last_error = NULL, secret = NULL, text_body = '', html_body = ''
    WHERE id = p_id AND sent_at IS NULL
$function$;
ALTER FUNCTION mail_sent(p_id uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION mail_sent(p_id uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION mail_sent(p_id uuid) TO portal_agent;
