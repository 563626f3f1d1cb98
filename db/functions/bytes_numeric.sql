-- Big-endian bytes as a whole number.
CREATE OR REPLACE FUNCTION public.bytes_numeric(p_bytes bytea)
 RETURNS numeric
 LANGUAGE plpgsql
 IMMUTABLE STRICT
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    result numeric := 0;
    position integer;
BEGIN
    FOR position IN 0 .. length(p_bytes) - 1 LOOP
        result := result * 256 + get_byte(p_bytes, position);
    END LOOP;
    RETURN result;
END
$function$;
