-- The caller's attempts at a link: allowed (the link's limit plus their extra attempts; NULL
-- when the link has no limit) and used (sessions they started from it).
CREATE OR REPLACE FUNCTION public.share_link_attempts(p_link uuid)
 RETURNS TABLE(allowed integer, used integer)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT l.attempts + coalesce((SELECT a.extra_attempts FROM public.accommodations a WHERE a.student_id = public.app_user_id()), 0),
           (SELECT count(*)::integer FROM public.study_sessions s WHERE s.share_link_id = l.id AND s.user_id = public.app_user_id())
    FROM public.share_links l WHERE l.id = p_link AND public.app_user_id() IS NOT NULL
$function$;
ALTER FUNCTION share_link_attempts(p_link uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION share_link_attempts(p_link uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION share_link_attempts(p_link uuid) TO portal_app;
