-- History stays frozen, except for two changes of owner: a guest's session claimed by the
-- account they made, and a deleted account's session made anonymous.
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
        IF OLD.user_id IS NOT NULL AND NEW.user_id IS NULL AND NEW.anonymous_key IS NOT NULL
           AND to_jsonb(NEW) - 'user_id' - 'anonymous_key' = to_jsonb(OLD) - 'user_id' - 'anonymous_key' THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'study session % has ended', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$function$;
