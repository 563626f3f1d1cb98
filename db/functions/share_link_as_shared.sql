-- What a live share link offers (neither revoked nor expired at p_now): the one description
-- share_link_by_token (a token's holder) and share_link_of_my_class (a pupil of its class) give,
-- each after its own proof. Granted to nobody: only those definer functions call it.
CREATE OR REPLACE FUNCTION public.share_link_as_shared(p_link uuid, p_now timestamp with time zone)
 RETURNS TABLE(id uuid, title text, exam_id bigint, region_code text, exam_slug text, exam_title text, exam_language text, class_id uuid, class_name text, shared_by text, mode text, domains text[], difficulty_from integer, difficulty_to integer, question_count integer, joins_class boolean, due_at timestamp with time zone, expires_at timestamp with time zone, quiz_id uuid, time_limit_minutes integer)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT l.id, l.title, l.exam_id, r.code, e.slug, e.title, e.language, l.class_id, c.name, u.display_name, l.mode, l.domains,
           l.difficulty_from, l.difficulty_to, l.question_count, l.joins_class, l.due_at, l.expires_at, l.quiz_id, l.time_limit_minutes
    FROM public.share_links l
    JOIN public.exams e ON e.id = l.exam_id JOIN public.regions r ON r.id = e.region_id
    JOIN public.users u ON u.id = l.created_by
    LEFT JOIN public.classes c ON c.id = l.class_id
    WHERE l.id = p_link AND l.revoked_at IS NULL AND (l.expires_at IS NULL OR l.expires_at > greatest(p_now, public.app_now()))
$function$;
ALTER FUNCTION share_link_as_shared(p_link uuid, p_now timestamp with time zone) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION share_link_as_shared(p_link uuid, p_now timestamp with time zone) FROM PUBLIC;
