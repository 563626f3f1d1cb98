-- The change feed: an exam-only question is gone from a device's point of view.
CREATE OR REPLACE FUNCTION public.exam_changes(p_exam bigint, p_since timestamp with time zone)
 RETURNS TABLE(id uuid, removed boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT q.id, (q.deleted_at IS NOT NULL OR q.status <> 'published' OR q.exam_only)
    FROM public.questions q JOIN public.domains d ON d.id = q.domain_id
    -- Five minutes of overlap: an edit in a transaction that began before the version was taken
    -- still reaches the client (sending an unchanged question again is harmless).
    WHERE d.exam_id = p_exam AND q.updated_at > p_since - interval '5 minutes'
$function$;
ALTER FUNCTION exam_changes(p_exam bigint, p_since timestamp with time zone) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION exam_changes(p_exam bigint, p_since timestamp with time zone) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION exam_changes(p_exam bigint, p_since timestamp with time zone) TO portal_app;
