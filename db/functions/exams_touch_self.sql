-- Marks an exam's content as updated when its own row changes, unless the statement set the
-- time itself.
CREATE OR REPLACE FUNCTION public.exams_touch_self()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF NEW.content_updated_at IS NOT DISTINCT FROM OLD.content_updated_at THEN
        NEW.content_updated_at := clock_timestamp();
    END IF;
    RETURN NEW;
END
$function$;
