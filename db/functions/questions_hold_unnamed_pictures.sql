-- A question with a picture named only by its file's name is not shown to students: written as
-- published (an import, an edit), it is kept as a draft, which its writer reads back and says.
CREATE OR REPLACE FUNCTION public.questions_hold_unnamed_pictures()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF NEW.status = 'published' AND public.question_picture_unnamed(NEW.options, NEW.rich) IS NOT NULL THEN
        NEW.status := 'draft';
    END IF;
    RETURN NEW;
END
$function$;
