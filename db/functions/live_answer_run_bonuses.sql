-- What a right answer to question `p_index` (0-based) may earn for its run, by the run's
-- length: element n is live_answer_run_bonus(n), for every run that can end there (at most
-- p_index + 1 long). Returned with each stored live answer, so the live scoreboard adds the
-- bonus for the run it sees without a rule of its own.
CREATE OR REPLACE FUNCTION public.live_answer_run_bonuses(p_index integer)
 RETURNS integer[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT array_agg(public.live_answer_run_bonus(n) ORDER BY n) FROM generate_series(1, greatest(1, p_index + 1)) AS n
$function$;
GRANT EXECUTE ON FUNCTION live_answer_run_bonuses(p_index integer) TO portal_app;
