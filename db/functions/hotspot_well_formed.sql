-- Whether a region's coordinates make its shape (HotspotRegion.isWellFormed), given the
-- coordinates as numbers.
CREATE OR REPLACE FUNCTION public.hotspot_well_formed(p_shape text, p_coords double precision[])
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
    SELECT NOT EXISTS (SELECT 1 FROM unnest(p_coords) AS c WHERE c < 0 OR c > 100000 OR c = 'NaN'::double precision)
       AND CASE p_shape
           WHEN 'rect' THEN cardinality(p_coords) = 4 AND p_coords[1] < p_coords[3] AND p_coords[2] < p_coords[4]
           WHEN 'circle' THEN cardinality(p_coords) = 3 AND p_coords[3] > 0
           WHEN 'polygon' THEN cardinality(p_coords) % 2 = 0 AND cardinality(p_coords) BETWEEN 6 AND 100
           ELSE false END
$function$;
