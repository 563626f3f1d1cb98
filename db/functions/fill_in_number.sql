-- The number a normalised answer states, or NULL: full-width digits and signs read as ASCII,
-- one decimal separator, a point or a comma (FillInRule.number).
CREATE OR REPLACE FUNCTION public.fill_in_number(p_text text)
 RETURNS double precision
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    t text := translate(p_text, '０１２３４５６７８９．，＋－−', '0123456789.,+--');
BEGIN
    IF strpos(t, ',') > 0 THEN
        IF strpos(t, '.') > 0 THEN
            RETURN NULL;
        END IF;
        t := replace(t, ',', '.');
    END IF;
    IF t !~ '^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$' THEN
        RETURN NULL;
    END IF;
    RETURN t::double precision;
END
$function$;
