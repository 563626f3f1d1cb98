-- Announces a change to the catalogue (regions, exams, domains): every instance drops its kept
-- catalogue pages.
CREATE OR REPLACE FUNCTION public.notify_content()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM pg_notify('portal_content', '');
    RETURN NULL;
END
$function$;
