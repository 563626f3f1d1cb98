-- Whether a share link may start a session of this exam and mode now.
CREATE OR REPLACE FUNCTION public.share_link_admits(p_link uuid, p_exam bigint, p_mode text)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT EXISTS (SELECT 1 FROM public.share_links l
                   WHERE l.id = p_link AND l.exam_id = p_exam AND l.mode = p_mode AND l.revoked_at IS NULL
                     AND (l.expires_at IS NULL OR l.expires_at > public.app_now()))
$function$;
ALTER FUNCTION share_link_admits(p_link uuid, p_exam bigint, p_mode text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION share_link_admits(p_link uuid, p_exam bigint, p_mode text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION share_link_admits(p_link uuid, p_exam bigint, p_mode text) TO portal_app;
