-- Retrievability with a student's own decay (weight 21); the three-argument form keeps FSRS-6's
-- default, 0.1542.
CREATE OR REPLACE FUNCTION public.fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone, decay double precision)
 RETURNS double precision
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT pg_catalog.power(1 + (pg_catalog.power(0.9::double precision, 1 / -decay) - 1)
                 * greatest(0, pg_catalog.floor(extract(epoch FROM at - last_review) / 86400)) / stability, -decay)
$function$;
GRANT EXECUTE ON FUNCTION fsrs_retrievability(stability double precision, last_review timestamp with time zone, at timestamp with time zone, decay double precision) TO portal_app;
