-- Announces that what a signed-in session carries (role, name, language, zone, disabled,
-- password, appearance, read-aloud) changed: every instance drops its kept copy of that user's sessions.
CREATE OR REPLACE FUNCTION public.notify_account_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM pg_notify('portal_sessions', 'user:' || NEW.id);
    RETURN NULL;
END
$function$;
