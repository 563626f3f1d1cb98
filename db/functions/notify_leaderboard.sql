-- Announces a leaderboard refresh: every instance drops its kept boards.
CREATE OR REPLACE FUNCTION public.notify_leaderboard()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM pg_notify('portal_leaderboard', '');
    RETURN NULL;
END
$function$;
