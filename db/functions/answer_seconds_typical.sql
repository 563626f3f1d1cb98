-- How long a student typically takes over an answer: the median of their last 200 answers'
-- times in whole seconds, 20 before they have any. What the reminders, the calendar feed and
-- the workload estimates turn a number of reviews into minutes with.
CREATE OR REPLACE FUNCTION public.answer_seconds_typical(p_user uuid)
 RETURNS integer
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT coalesce((SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r.time_ms) / 1000)::integer
                     FROM (SELECT a.time_ms FROM public.answers a WHERE a.user_id = p_user ORDER BY a.answered_at DESC LIMIT 200) AS r), 20)
$function$;
GRANT EXECUTE ON FUNCTION answer_seconds_typical(p_user uuid) TO portal_app, portal_auth;
