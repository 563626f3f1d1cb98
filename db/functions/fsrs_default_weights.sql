-- FSRS-6's default weights (QuestionEngine's FSRSParameters.defaultWeights): a student's until
-- weights are fitted to their own history.
CREATE OR REPLACE FUNCTION public.fsrs_default_weights()
 RETURNS double precision[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT ARRAY[0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614,
                 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542]::double precision[]
$function$;
