-- History stays frozen, except for this one change of owner.
CREATE OR REPLACE FUNCTION public.study_sessions_frozen()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF OLD.finished_at IS NOT NULL THEN
        IF OLD.user_id IS NULL AND NEW.user_id IS NOT NULL AND NEW.guest_key IS NULL
           AND to_jsonb(NEW) - 'user_id' - 'guest_key' = to_jsonb(OLD) - 'user_id' - 'guest_key' THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'study session % has ended', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$function$;
