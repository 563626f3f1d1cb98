-- Announces a class as changed when a column of the class itself that its page shows changes
-- (the teacher's public-boards choice): the readers of its page fetch it again.
CREATE OR REPLACE FUNCTION public.notify_class_row_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM pg_catalog.pg_notify('portal_readers', 'class:' || NEW.id);
    RETURN NULL;
END
$function$;
