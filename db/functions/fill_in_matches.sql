-- ---------------------------------------------------------------------------------------------
-- Whether a typed answer (normalised, not empty; its number when compared as numbers) is an
-- expected one, compared the question's way (FillInRule.matches): the same text, the same in
-- lower case, or a number within the tolerance.
CREATE OR REPLACE FUNCTION public.fill_in_matches(p_rule text, p_typed text, p_typed_number double precision, p_expected text, p_tolerance double precision)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
    SELECT CASE p_rule
        WHEN 'exact' THEN public.fill_in_normalized(p_expected) = p_typed
        WHEN 'case-insensitive' THEN lower(public.fill_in_normalized(p_expected) COLLATE "und-x-icu") = lower(p_typed COLLATE "und-x-icu")
        ELSE coalesce(abs(p_typed_number - public.fill_in_number(public.fill_in_normalized(p_expected))) <= p_tolerance, false)
    END
$function$;
