-- The exam of a question is its domain's, whatever the writer said.
CREATE OR REPLACE FUNCTION public.questions_set_exam()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    NEW.exam_id := (SELECT d.exam_id FROM public.domains d WHERE d.id = NEW.domain_id);
    RETURN NEW;
END
$function$;
