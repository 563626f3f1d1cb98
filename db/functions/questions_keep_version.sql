-- Keeps every published version of a question as it was (question_versions), so an answer
-- is always shown and judged against the version the student saw.
CREATE OR REPLACE FUNCTION public.questions_keep_version()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.version IS DISTINCT FROM OLD.version THEN
        INSERT INTO public.question_versions (question_id, version, snapshot)
        VALUES (NEW.id, NEW.version, jsonb_build_object(
            'type', NEW.type, 'stem', NEW.stem, 'rich', NEW.rich, 'code', NEW.code, 'codeLanguage', NEW.code_language, 'options', NEW.options,
            'correct', NEW.correct, 'details', NEW.details, 'explanation', NEW.explanation, 'difficulty', NEW.difficulty,
            'status', NEW.status, 'deletedAt', NEW.deleted_at, 'examOnly', NEW.exam_only))
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$function$;
