-- The optimizer's bounds (FSRSOptimizer.bounds), weight by weight.
CREATE OR REPLACE FUNCTION public.fsrs_weights_within_bounds(weights double precision[])
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog'
AS $function$
    SELECT cardinality(weights) = 21 AND array_ndims(weights) = 1 AND NOT EXISTS (
        SELECT 1 FROM unnest(weights,
            ARRAY[0.001, 0.001, 0.001, 0.001, 1, 0.001, 0.001, 0.001, 0, 0, 0.001, 0.001, 0.001, 0.001, 0, 0, 1, 0, 0, 0, 0.1]::double precision[],
            ARRAY[100, 100, 100, 100, 10, 4, 4, 0.75, 4.5, 0.8, 3.5, 5, 0.25, 0.9, 4, 1, 6, 2, 2, 0.8, 0.8]::double precision[])
            AS w(value, low, high)
        WHERE w.value IS NULL OR w.value = 'NaN' OR w.value < w.low OR w.value > w.high)
$function$;
GRANT EXECUTE ON FUNCTION fsrs_weights_within_bounds(weights double precision[]) TO portal_app;
