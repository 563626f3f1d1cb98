-- The course's people who are in the class: its members, and its own teacher (who opened the
-- portal from the course too, and teaches the class rather than joining it).
CREATE OR REPLACE FUNCTION public.lti_roster_joined(p_class uuid, p_subjects text[])
 RETURNS text[]
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT coalesce(array_agg(i.subject), '{}')
    FROM public.lti_contexts c
    JOIN public.lti_platforms p ON p.id = c.platform_id
    JOIN public.classes k ON k.id = c.class_id
    JOIN public.external_identities i ON i.kind = 'lti' AND i.issuer = p.issuer AND i.subject = ANY (p_subjects)
    WHERE c.class_id = p_class AND k.teacher_id = public.app_user_id()
      AND (i.user_id = k.teacher_id
           OR EXISTS (SELECT 1 FROM public.class_members m WHERE m.class_id = c.class_id AND m.user_id = i.user_id AND m.left_at IS NULL))
$function$;
ALTER FUNCTION lti_roster_joined(p_class uuid, p_subjects text[]) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION lti_roster_joined(p_class uuid, p_subjects text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_roster_joined(p_class uuid, p_subjects text[]) TO portal_app;
