-- The bonus a right answer earns as the `run`-th right answer in a row over consecutive
-- questions of a live event: none for the first, 50 more for each after it, at most 250. The
-- one statement of the rule: the stored board (live_board) sums it, and the live scoreboard in
-- Redis is handed its values with every stored answer (live_answer_run_bonuses).
CREATE OR REPLACE FUNCTION public.live_answer_run_bonus(p_run integer)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT least(250, 50 * greatest(0, p_run - 1))
$function$;
GRANT EXECUTE ON FUNCTION live_answer_run_bonus(p_run integer) TO portal_app;
