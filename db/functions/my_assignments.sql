-- The signed-in pupil's assignments: every live share link of each class they are in now (not
-- revoked, not expired), with the attempts they may make (the link's limit plus their extra
-- attempts; NULL when unlimited) and have started, and their best finished attempt. Pupils may
-- not read share_links themselves (its tokens are the teacher's); this says only what a pupil
-- needs to find their homework again without the link.
CREATE OR REPLACE FUNCTION public.my_assignments(p_now timestamp with time zone)
 RETURNS TABLE(id uuid, title text, class_id uuid, class_name text, exam_title text, exam_language text, mode text, question_count integer,
               due_at timestamp with time zone, allowed integer, used integer, finished_at timestamp with time zone, score_percent double precision)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT l.id, l.title, c.id, c.name, e.title, e.language, l.mode, l.question_count, l.due_at,
           l.attempts + coalesce((SELECT a.extra_attempts FROM public.accommodations a WHERE a.student_id = m.user_id), 0),
           (SELECT count(*)::integer FROM public.study_sessions s WHERE s.share_link_id = l.id AND s.user_id = m.user_id),
           best.finished_at, best.score_percent::double precision
    FROM public.class_members m JOIN public.classes c ON c.id = m.class_id
    JOIN public.share_links l ON l.class_id = c.id JOIN public.exams e ON e.id = l.exam_id
    LEFT JOIN LATERAL (SELECT s.finished_at, s.score_percent FROM public.study_sessions s
                       WHERE s.share_link_id = l.id AND s.user_id = m.user_id AND s.finished_at IS NOT NULL
                       ORDER BY s.score_percent DESC NULLS LAST, s.finished_at LIMIT 1) AS best ON true
    WHERE m.user_id = public.app_user_id() AND m.left_at IS NULL AND l.revoked_at IS NULL
      AND (l.expires_at IS NULL OR l.expires_at > greatest(p_now, public.app_now()))
    ORDER BY l.due_at NULLS LAST, l.created_at DESC, l.id
$function$;
ALTER FUNCTION my_assignments(p_now timestamp with time zone) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION my_assignments(p_now timestamp with time zone) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION my_assignments(p_now timestamp with time zone) TO portal_app;
