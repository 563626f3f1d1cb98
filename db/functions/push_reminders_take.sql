-- The push reminders due now (the agent's side): each device of a student whose study time has
-- come today in their time zone, on a day that is not a day off or a holiday, with reviews due
-- by the end of today and no push reminder yet today; the student is marked reminded as they
-- are taken.
CREATE OR REPLACE FUNCTION public.push_reminders_take(p_limit integer)
 RETURNS TABLE(subscription uuid, endpoint text, p256dh bytea, auth bytea, locale text, due integer, seconds integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
BEGIN
    RETURN QUERY
    WITH candidates AS (
        SELECT u.id, u.locale, local.today, local.day_end
        FROM public.users u,
             LATERAL (SELECT (now_at AT TIME ZONE u.time_zone)::date AS today,
                             (((now_at AT TIME ZONE u.time_zone)::date + 1)::timestamp AT TIME ZONE u.time_zone) AS day_end) AS local
        WHERE EXISTS (SELECT 1 FROM public.push_subscriptions s WHERE s.user_id = u.id) AND u.disabled_at IS NULL
          AND u.push_sent_on IS DISTINCT FROM local.today
          AND public.reminder_day_open(u.id, u.time_zone, u.study_time, u.easy_days, now_at)
        ORDER BY u.id
        LIMIT least(greatest(p_limit, 1), 200)
        FOR UPDATE OF u SKIP LOCKED
    ), counted AS (
        SELECT c.*, (SELECT count(*)::integer FROM public.review_cards r WHERE r.user_id = c.id AND r.due < c.day_end) AS due
        FROM candidates c
    ), marked AS (
        UPDATE public.users u SET push_sent_on = counted.today FROM counted WHERE u.id = counted.id RETURNING u.id
    )
    SELECT s.id, s.endpoint, s.p256dh, s.auth, coalesce(counted.locale, 'en'), counted.due,
           public.answer_seconds_typical(counted.id)
    FROM counted JOIN marked ON marked.id = counted.id JOIN public.push_subscriptions s ON s.user_id = counted.id
    WHERE counted.due > 0;
END
$function$;
ALTER FUNCTION push_reminders_take(p_limit integer) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION push_reminders_take(p_limit integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_reminders_take(p_limit integer) TO portal_agent;
