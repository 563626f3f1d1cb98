CREATE OR REPLACE FUNCTION public.app_now()
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    RETURN (SELECT pg_catalog.now() + pg_catalog.make_interval(secs => c.offset_seconds) FROM public.server_clock c);
END
$function$;
