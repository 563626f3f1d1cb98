-- Whether a student appears on leaderboards is part of what their own leaderboard page shows:
-- changing it changes their data version too (and says so), like any other write of theirs.
CREATE OR REPLACE FUNCTION public.users_visibility_version()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    NEW.data_version := pg_catalog.pg_current_xact_id()::text::bigint;
    PERFORM pg_catalog.pg_notify('portal_readers', NEW.id::text || ':' || NEW.data_version);
    RETURN NEW;
END
$function$;
