-- An assignment as share_link_by_token describes it, found by its id instead of its token: for
-- a pupil of the link's class now (a pupil who lost the link opens it from their classes), when
-- it is neither revoked nor expired. Nothing for anyone else.
CREATE OR REPLACE FUNCTION public.share_link_of_my_class(p_link uuid, p_now timestamp with time zone)
 RETURNS TABLE(id uuid, title text, exam_id bigint, region_code text, exam_slug text, exam_title text, exam_language text, class_id uuid, class_name text, shared_by text, mode text, domains text[], difficulty_from integer, difficulty_to integer, question_count integer, joins_class boolean, due_at timestamp with time zone, expires_at timestamp with time zone, quiz_id uuid, time_limit_minutes integer)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT s.* FROM public.share_link_as_shared(p_link, p_now) AS s
    WHERE EXISTS (SELECT 1 FROM public.class_members m
                  WHERE m.class_id = s.class_id AND m.user_id = public.app_user_id() AND m.left_at IS NULL)
$function$;
ALTER FUNCTION share_link_of_my_class(p_link uuid, p_now timestamp with time zone) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION share_link_of_my_class(p_link uuid, p_now timestamp with time zone) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION share_link_of_my_class(p_link uuid, p_now timestamp with time zone) TO portal_app;
