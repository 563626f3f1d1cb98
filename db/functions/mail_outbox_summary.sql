-- How the outbox stands, for an admin (nobody else gets a row): messages waiting, sent and
-- given up in the last 30 days, the oldest waiting one's age and the latest failure's reason.
CREATE OR REPLACE FUNCTION public.mail_outbox_summary()
 RETURNS TABLE(waiting integer, sent integer, given_up integer, oldest_waiting timestamptz, last_error text, last_error_at timestamptz)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT count(*) FILTER (WHERE o.sent_at IS NULL AND o.given_up_at IS NULL)::integer,
           count(*) FILTER (WHERE o.sent_at IS NOT NULL)::integer,
           count(*) FILTER (WHERE o.given_up_at IS NOT NULL)::integer,
           min(o.created_at) FILTER (WHERE o.sent_at IS NULL AND o.given_up_at IS NULL),
           (SELECT f.last_error FROM public.mail_outbox f WHERE f.last_error IS NOT NULL ORDER BY f.next_attempt_at DESC LIMIT 1),
           (SELECT f.next_attempt_at FROM public.mail_outbox f WHERE f.last_error IS NOT NULL ORDER BY f.next_attempt_at DESC LIMIT 1)
    FROM public.mail_outbox o
    WHERE public.app_role() = 'admin'
    HAVING public.app_role() = 'admin'
$function$;
ALTER FUNCTION mail_outbox_summary() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION mail_outbox_summary() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION mail_outbox_summary() TO portal_app;
