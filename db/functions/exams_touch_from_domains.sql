-- Marks an exam's content as updated when a statement adds or changes its domains (the home
-- page's "Content updated …" and the offline bundle's version read content_updated_at).
CREATE OR REPLACE FUNCTION public.exams_touch_from_domains()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    UPDATE exams SET content_updated_at = clock_timestamp() WHERE id IN (SELECT exam_id FROM changed_rows);
    RETURN NULL;
END
$function$;
