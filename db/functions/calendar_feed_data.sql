-- What the calendar feed at the address with token p_token shows, when the token is a live
-- feed's (NULL otherwise): its owner's language, time zone and study time; reviews due on each
-- of the next p_days days in their time zone (what is overdue counts today) with their typical
-- seconds per answer; the days they sit exams; their classes' assignment deadlines still ahead;
-- and the text kept from the last time (served again while `made_for`, a digest of the rest,
-- is unchanged). The token is the proof: no session is involved.
CREATE OR REPLACE FUNCTION public.calendar_feed_data(p_token text, p_days integer DEFAULT 30)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    feed record;
    now_at timestamptz := public.app_now();
    today date;
    facts jsonb;
BEGIN
    SELECT f.user_id, f.body, f.made_for, f.changed_at, u.time_zone, u.locale, u.study_time, u.display_name
      INTO feed
    FROM public.calendar_feeds f JOIN public.users u ON u.id = f.user_id
    WHERE f.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) AND u.disabled_at IS NULL;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    today := (now_at AT TIME ZONE feed.time_zone)::date;
    facts := jsonb_build_object(
        'user', feed.user_id, 'name', feed.display_name, 'locale', feed.locale, 'timeZone', feed.time_zone,
        'studyTime', to_char(feed.study_time, 'HH24:MI'), 'today', today,
        'days', coalesce((
            SELECT jsonb_agg(jsonb_build_object('date', d.day, 'reviews', d.reviews) ORDER BY d.day)
            FROM (SELECT greatest((c.due AT TIME ZONE feed.time_zone)::date, today) AS day, count(*)::integer AS reviews
                  FROM public.review_cards c
                  WHERE c.user_id = feed.user_id AND c.due < ((today + p_days)::timestamp AT TIME ZONE feed.time_zone)
                  GROUP BY 1) AS d), '[]'::jsonb),
        'secondsPerReview', public.answer_seconds_typical(feed.user_id),
        'exams', coalesce((
            SELECT jsonb_agg(jsonb_build_object('id', x.exam_id, 'title', e.title, 'date', x.sits_on) ORDER BY x.sits_on, e.title)
            FROM public.exam_dates x JOIN public.exams e ON e.id = x.exam_id
            WHERE x.user_id = feed.user_id AND x.sits_on >= today), '[]'::jsonb),
        'deadlines', coalesce((
            SELECT jsonb_agg(jsonb_build_object('id', l.id, 'title', l.title, 'class', c.name, 'dueEpoch', extract(epoch FROM l.due_at)) ORDER BY l.due_at, l.id)
            FROM public.share_links l JOIN public.classes c ON c.id = l.class_id
            JOIN public.class_members m ON m.class_id = c.id AND m.user_id = feed.user_id AND m.left_at IS NULL
            WHERE l.due_at IS NOT NULL AND l.due_at > now_at AND l.revoked_at IS NULL), '[]'::jsonb));
    RETURN facts || jsonb_build_object('madeFor', md5(facts::text), 'kept', feed.body, 'keptFor', feed.made_for, 'changedEpoch', extract(epoch FROM feed.changed_at));
END
$function$;
ALTER FUNCTION calendar_feed_data(p_token text, p_days integer) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION calendar_feed_data(p_token text, p_days integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION calendar_feed_data(p_token text, p_days integer) TO portal_app;
