-- p_base ^ p_exponent mod p_modulus, by squaring (17 multiplications for e = 65537).
CREATE OR REPLACE FUNCTION public.numeric_modpow(p_base numeric, p_exponent numeric, p_modulus numeric)
 RETURNS numeric
 LANGUAGE plpgsql
 IMMUTABLE STRICT
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    result numeric := 1;
    base numeric := mod(p_base, p_modulus);
    exponent numeric := p_exponent;
BEGIN
    WHILE exponent > 0 LOOP
        IF mod(exponent, 2) = 1 THEN
            result := mod(result * base, p_modulus);
        END IF;
        exponent := div(exponent, 2);
        IF exponent > 0 THEN
            base := mod(base * base, p_modulus);
        END IF;
    END LOOP;
    RETURN result;
END
$function$;
