-- The day (days after the answer's day, at least 1) a card FSRS sends p_interval days ahead is due,
-- the student's calendar considered: QuestionEngine's ReviewDayChoice.day, rule for rule (the
-- tests hold the two equal). p_capacity and p_due give each day from the answer's day on (element
-- 1 is that day; days past the end are open and empty): capacity 1, ½ on a reduced easy day, 0 on
-- a day off or a holiday; the reviews already due. With p_balance the least loaded open day of
-- FSRS's fuzz range is chosen (ties: nearest the interval, then earlier); without it the interval
-- itself unless that day is closed. When no day in range is open, the card goes after the closed
-- stretch if its recall then is within 0.05 of the desired retention, before it otherwise.
CREATE OR REPLACE FUNCTION public.review_day_choice(
    p_interval integer, p_maximum integer, p_capacity double precision[], p_due integer[], p_balance boolean,
    p_retention double precision, p_stability double precision, p_decay double precision)
 RETURNS integer
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    spread constant integer := 3;
    factor double precision := power(0.9::double precision, 1 / p_decay) - 1;
    range_lower integer := p_interval;
    range_upper integer := p_interval;
    chosen integer;
    early integer;
    first_after integer;
    found integer := 0;
    day integer;
    candidates integer[] := '{}';
BEGIN
    IF p_balance THEN
        SELECT r.lower_day, r.upper_day INTO range_lower, range_upper FROM public.review_fuzz_range(p_interval, p_maximum) r;
    END IF;
    -- Array element day + 1 holds day `day`; past the end a day is open (1) with nothing due.
    SELECT d INTO chosen FROM generate_series(range_lower, range_upper) d
    WHERE coalesce(p_capacity[d + 1], 1) > 0
    ORDER BY (CASE WHEN p_balance THEN coalesce(p_due[d + 1], 0) ELSE 0 END + 1) / coalesce(p_capacity[d + 1], 1),
             abs(d - p_interval), d
    LIMIT 1;
    IF chosen IS NOT NULL THEN
        RETURN chosen;
    END IF;
    -- Nothing open in range: the nearest open days before (never the answer's own day) …
    day := range_lower - 1;
    WHILE day >= 1 AND found < spread LOOP
        IF coalesce(p_capacity[day + 1], 1) > 0 THEN
            candidates := candidates || day;
            found := found + 1;
        END IF;
        day := day - 1;
    END LOOP;
    SELECT d INTO early FROM unnest(candidates) d
    ORDER BY (CASE WHEN p_balance THEN coalesce(p_due[d + 1], 0) ELSE 0 END + 1) / coalesce(p_capacity[d + 1], 1), abs(d - p_interval), d
    LIMIT 1;
    -- … and after.
    candidates := '{}';
    found := 0;
    day := range_upper + 1;
    WHILE found < spread LOOP
        IF coalesce(p_capacity[day + 1], 1) > 0 THEN
            candidates := candidates || day;
            found := found + 1;
        END IF;
        day := day + 1;
    END LOOP;
    first_after := candidates[1];
    IF early IS NOT NULL AND power(1 + factor * first_after / p_stability, p_decay) < p_retention - 0.05 THEN
        RETURN early;
    END IF;
    SELECT d INTO chosen FROM unnest(candidates) d
    ORDER BY (CASE WHEN p_balance THEN coalesce(p_due[d + 1], 0) ELSE 0 END + 1) / coalesce(p_capacity[d + 1], 1), abs(d - p_interval), d
    LIMIT 1;
    RETURN chosen;
END
$function$;
