CREATE OR REPLACE FUNCTION public.fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone)
 RETURNS double precision
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT pg_catalog.power(1 + (pg_catalog.power(0.9::double precision, 1 / -0.1542::double precision) - 1)
                 * greatest(0, pg_catalog.floor(extract(epoch FROM at - last_review) / 86400)) / stability, -0.1542::double precision)
$function$;
GRANT EXECUTE ON FUNCTION fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone) TO portal_app;
