-- Announces a class as changed when its members change: the readers of its page fetch it again.
CREATE OR REPLACE FUNCTION public.notify_class_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.class_id IS NOT NULL THEN
        PERFORM pg_catalog.pg_notify('portal_readers', 'class:' || OLD.class_id);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.class_id IS NOT NULL THEN
        PERFORM pg_catalog.pg_notify('portal_readers', 'class:' || NEW.class_id);
    END IF;
    RETURN NULL;
END
$function$;
