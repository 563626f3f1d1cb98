-- A message not handed over: tried again after 30 s, 1, 2, 4 … minutes (at most an hour), or
-- given up when the refusal is permanent or the message is two days old (its token erased).
CREATE OR REPLACE FUNCTION public.mail_failed(p_id uuid, p_error text, p_permanent boolean)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE public.mail_outbox
    SET attempts = attempts + 1, last_error = left(p_error, 500),
        next_attempt_at = public.app_now() + least(interval '1 hour', interval '30 seconds' * power(2, least(attempts, 10))),
        given_up_at = CASE WHEN p_permanent OR created_at < public.app_now() - interval '2 days' THEN public.app_now() END,
        secret = CASE WHEN p_permanent OR created_at < public.app_now() - interval '2 days' THEN NULL ELSE secret END
    WHERE id = p_id AND sent_at IS NULL AND given_up_at IS NULL
$function$;
ALTER FUNCTION mail_failed(p_id uuid, p_error text, p_permanent boolean) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION mail_failed(p_id uuid, p_error text, p_permanent boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION mail_failed(p_id uuid, p_error text, p_permanent boolean) TO portal_agent;
