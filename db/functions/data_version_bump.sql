-- A row of a student's written: their data version changes (reader_changed). An answer's insert
-- does not come here: answers_schedule changes it, once per student and statement.
CREATE OR REPLACE FUNCTION public.data_version_bump()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.user_id IS NOT NULL THEN
        PERFORM public.reader_changed(OLD.user_id);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.user_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
        PERFORM public.reader_changed(NEW.user_id);
    END IF;
    RETURN NULL;
END
$function$;
ALTER FUNCTION data_version_bump() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION data_version_bump() FROM PUBLIC;
