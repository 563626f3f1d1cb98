-- Whether a point lies in a region (HotspotRegion.contains: edges of rectangles and circles
-- included, polygons by the even-odd rule, the same arithmetic in the same order).
CREATE OR REPLACE FUNCTION public.hotspot_contains(p_region jsonb, x double precision, y double precision)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    c double precision[] := ARRAY(SELECT v::double precision FROM jsonb_array_elements_text(p_region -> 'coords') AS v);
    n integer;
    i integer;
    j integer;
    inside boolean := false;
    dx double precision;
    dy double precision;
BEGIN
    IF NOT public.hotspot_well_formed(p_region ->> 'shape', c) THEN
        RETURN false;
    END IF;
    IF p_region ->> 'shape' = 'rect' THEN
        RETURN x >= c[1] AND x <= c[3] AND y >= c[2] AND y <= c[4];
    ELSIF p_region ->> 'shape' = 'circle' THEN
        dx := x - c[1];
        dy := y - c[2];
        RETURN dx * dx + dy * dy <= c[3] * c[3];
    END IF;
    n := cardinality(c) / 2;
    j := n - 1;
    FOR i IN 0 .. n - 1 LOOP
        IF (c[2 * i + 2] > y) <> (c[2 * j + 2] > y)
           AND x < (c[2 * j + 1] - c[2 * i + 1]) * (y - c[2 * i + 2]) / (c[2 * j + 2] - c[2 * i + 2]) + c[2 * i + 1] THEN
            inside := NOT inside;
        END IF;
        j := i;
    END LOOP;
    RETURN inside;
END
$function$;
