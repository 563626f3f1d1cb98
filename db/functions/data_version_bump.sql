CREATE OR REPLACE FUNCTION public.data_version_bump()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    stamp bigint := pg_catalog.pg_current_xact_id()::text::bigint;
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.user_id IS NOT NULL THEN
        UPDATE public.users SET data_version = stamp WHERE id = OLD.user_id AND data_version <> stamp;
        IF FOUND THEN
            PERFORM pg_catalog.pg_notify('portal_readers', OLD.user_id::text || ':' || stamp);
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.user_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
        UPDATE public.users SET data_version = stamp WHERE id = NEW.user_id AND data_version <> stamp;
        IF FOUND THEN
            PERFORM pg_catalog.pg_notify('portal_readers', NEW.user_id::text || ':' || stamp);
        END IF;
    END IF;
    RETURN NULL;
END
$function$;
ALTER FUNCTION data_version_bump() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION data_version_bump() FROM PUBLIC;
