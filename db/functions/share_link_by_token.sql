CREATE OR REPLACE FUNCTION public.share_link_by_token(p_hash bytea, p_now timestamp with time zone)
 RETURNS TABLE(id uuid, title text, exam_id bigint, region_code text, exam_slug text, exam_title text, exam_language text, class_id uuid, class_name text, shared_by text, mode text, domains text[], difficulty_from integer, difficulty_to integer, question_count integer, joins_class boolean, due_at timestamp with time zone, expires_at timestamp with time zone, quiz_id uuid, time_limit_minutes integer)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT s.* FROM public.share_links l CROSS JOIN LATERAL public.share_link_as_shared(l.id, p_now) AS s
    WHERE l.token_hash = p_hash
$function$;
ALTER FUNCTION share_link_by_token(p_hash bytea, p_now timestamp with time zone) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION share_link_by_token(p_hash bytea, p_now timestamp with time zone) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION share_link_by_token(p_hash bytea, p_now timestamp with time zone) TO portal_app;
