-- Whole days until retrievability falls to the desired retention, within [1, 36500]: FSRS's
-- next interval (QuestionEngine's nextIntervalDays), rounded half away from zero as Swift rounds.
CREATE OR REPLACE FUNCTION public.fsrs_interval_days(p_stability double precision, p_factor double precision, p_decay double precision, p_retention double precision)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT least(greatest(1, floor(p_stability / p_factor * (power(p_retention, 1 / p_decay) - 1) + 0.5)::integer), 36500)
$function$;
