-- FSRS's fuzz range for an interval of p_interval whole days, as the reference scheduler computes
-- it (QuestionEngine's ReviewDayChoice.fuzzRange): none under 2.5 days, then ±(1 + 15% of days
-- 2.5–7 + 10% of 7–20 + 5% beyond), rounded half away from zero, at least 2, at most p_maximum.
CREATE OR REPLACE FUNCTION public.review_fuzz_range(p_interval integer, p_maximum integer, OUT lower_day integer, OUT upper_day integer)
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    days double precision := p_interval;
    delta double precision;
BEGIN
    IF days < 2.5 THEN
        lower_day := p_interval;
        upper_day := p_interval;
        RETURN;
    END IF;
    delta := 1.0 + 0.15 * greatest(least(days, 7) - 2.5, 0) + 0.1 * greatest(least(days, 20) - 7, 0) + 0.05 * greatest(days - 20, 0);
    upper_day := least(floor(days + delta + 0.5)::integer, p_maximum);
    lower_day := least(greatest(2, floor(days - delta + 0.5)::integer), upper_day);
END
$function$;
