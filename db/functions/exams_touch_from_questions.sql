-- Every content write bumps its exam's content_updated_at, so offline copies learn of it.
-- Statement-level with transition tables: a bulk load touches each exam once, not per row.
CREATE OR REPLACE FUNCTION public.exams_touch_from_questions()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    UPDATE exams SET content_updated_at = clock_timestamp()
    WHERE id IN (SELECT d.exam_id FROM changed_rows c JOIN domains d ON d.id = c.domain_id);
    RETURN NULL;
END
$function$;
