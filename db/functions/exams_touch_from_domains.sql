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
