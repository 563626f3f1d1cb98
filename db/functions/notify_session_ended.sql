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
