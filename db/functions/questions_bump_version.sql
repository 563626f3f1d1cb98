-- A version is bumped, and kept, when the details change too.
CREATE OR REPLACE FUNCTION public.questions_bump_version()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF (NEW.type, NEW.stem, NEW.rich, NEW.code, NEW.code_language, NEW.options, NEW.correct, NEW.details, NEW.explanation,
        NEW.difficulty, NEW.status, NEW.deleted_at, NEW.domain_id, NEW.exam_only)
       IS DISTINCT FROM
       (OLD.type, OLD.stem, OLD.rich, OLD.code, OLD.code_language, OLD.options, OLD.correct, OLD.details, OLD.explanation,
        OLD.difficulty, OLD.status, OLD.deleted_at, OLD.domain_id, OLD.exam_only) THEN
        NEW.version := OLD.version + 1;
        NEW.updated_at := now();
    END IF;
    RETURN NEW;
END
$function$;
