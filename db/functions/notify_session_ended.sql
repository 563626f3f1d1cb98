-- Announces a signed-in session's end (sign-out, reset, removal): every instance forgets it at once.
CREATE OR REPLACE FUNCTION public.notify_session_ended()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM pg_notify('portal_sessions', 'session:' || OLD.id);
    RETURN NULL;
END
$function$;
