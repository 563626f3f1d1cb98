-- The reminders due now (the sender's side, portal_agent): students who chose them, with a
-- verified address, whose study time has come today in their time zone, on a day that is not
-- a day off or a holiday, with reviews due (by the end of today; for a weekly reminder, of the
-- coming week — sent on the first day of their week that is not a day off), and none queued
-- today. Each is marked queued as it is taken, so two senders never take the same student.
CREATE OR REPLACE FUNCTION public.mail_digests_take(p_limit integer)
 RETURNS TABLE(user_id uuid, locale text, display_name text, weekly boolean, due integer, seconds integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
BEGIN
    RETURN QUERY
    WITH candidates AS (
        SELECT u.id, u.locale, u.display_name, u.digest = 'weekly' AS weekly, local.today, local.day_end
        FROM public.users u JOIN public.user_emails e ON e.user_id = u.id,
             LATERAL (SELECT (now_at AT TIME ZONE u.time_zone)::date AS today,
                             (((now_at AT TIME ZONE u.time_zone)::date + CASE WHEN u.digest = 'weekly' THEN 7 ELSE 1 END)::timestamp
                              AT TIME ZONE u.time_zone) AS day_end) AS local
        WHERE u.digest <> 'off' AND u.disabled_at IS NULL
          AND u.digest_sent_on IS DISTINCT FROM local.today
          AND public.reminder_day_open(u.id, u.time_zone, u.study_time, u.easy_days, now_at)
          AND (u.digest = 'daily' OR extract(isodow FROM local.today)::integer = strpos(translate(u.easy_days, 'r', 'n'), 'n'))
        ORDER BY u.id
        LIMIT least(greatest(p_limit, 1), 200)
        FOR UPDATE OF u SKIP LOCKED
    ), counted AS (
        SELECT c.*, (SELECT count(*)::integer FROM public.review_cards r WHERE r.user_id = c.id AND r.due < c.day_end) AS due
        FROM candidates c
    ), marked AS (
        UPDATE public.users u SET digest_sent_on = counted.today FROM counted WHERE u.id = counted.id RETURNING u.id
    )
    SELECT counted.id, coalesce(counted.locale, 'en'), counted.display_name, counted.weekly, counted.due,
           public.answer_seconds_typical(counted.id)
    FROM counted JOIN marked ON marked.id = counted.id
    WHERE counted.due > 0;
END
$function$;
ALTER FUNCTION mail_digests_take(p_limit integer) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION mail_digests_take(p_limit integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION mail_digests_take(p_limit integer) TO portal_agent;
