-- Whether a reminder may reach the student `p_user` at p_now: their study time has come on their
-- today (in p_time_zone), and today is neither a day off of their week (p_easy_days) nor in a
-- holiday of theirs. The one rule for every kind of reminder.
CREATE OR REPLACE FUNCTION public.reminder_day_open(p_user uuid, p_time_zone text, p_study_time time, p_easy_days text, p_now timestamptz)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT (p_now AT TIME ZONE p_time_zone)::time >= p_study_time
       AND substr(p_easy_days, extract(isodow FROM (p_now AT TIME ZONE p_time_zone)::date)::integer, 1) <> 'x'
       AND NOT EXISTS (SELECT 1 FROM public.study_holidays h
                       WHERE h.user_id = p_user AND (p_now AT TIME ZONE p_time_zone)::date BETWEEN h.starts_on AND h.ends_on)
$function$;
GRANT EXECUTE ON FUNCTION reminder_day_open(p_user uuid, p_time_zone text, p_study_time time without time zone, p_easy_days text, p_now timestamp with time zone) TO portal_auth;
