-- ---------------------------------------------------------------------------------------------
-- The verdict on a typed answer (normalised, not empty) by a fill-in question's rule or one
-- cloze gap's (FillInRule.outcome): right when it is an accepted answer, else the best share of
-- the partly right answers it is.
CREATE OR REPLACE FUNCTION public.typed_answer_outcome(p_rule jsonb, p_typed text, OUT correct boolean, OUT score double precision)
 RETURNS record
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    rule text := coalesce(p_rule ->> 'match', 'exact');
    tolerance double precision := coalesce((p_rule ->> 'tolerance')::double precision, 0);
    typed_number double precision := CASE WHEN rule = 'numeric' THEN public.fill_in_number(p_typed) END;
BEGIN
    correct := EXISTS (SELECT 1 FROM jsonb_array_elements_text(p_rule -> 'accepted') AS a
                       WHERE public.fill_in_matches(rule, p_typed, typed_number, a, tolerance));
    score := CASE WHEN correct THEN 1 ELSE coalesce((
        SELECT max((p ->> 'share')::double precision) FROM jsonb_array_elements(coalesce(p_rule -> 'partial', '[]')) AS p
        WHERE public.fill_in_matches(rule, p_typed, typed_number, p ->> 'answer', coalesce((p ->> 'tolerance')::double precision, tolerance))), 0) END;
END
$function$;
GRANT EXECUTE ON FUNCTION typed_answer_outcome(p_rule jsonb, p_typed text, OUT correct boolean, OUT score double precision) TO portal_app;
