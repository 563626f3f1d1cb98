CREATE OR REPLACE FUNCTION public.class_version_members(p_class uuid)
 RETURNS TABLE(version text, members uuid[])
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.classes c
                   WHERE c.id = p_class AND (c.teacher_id = public.app_user_id() OR public.app_role() = 'admin')) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT public.class_version(p_class),
                        COALESCE((SELECT pg_catalog.array_agg(m.user_id ORDER BY m.user_id) FROM public.class_members m
                                  WHERE m.class_id = p_class AND m.left_at IS NULL), '{}'::uuid[]);
END
$function$;
ALTER FUNCTION class_version_members(p_class uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION class_version_members(p_class uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION class_version_members(p_class uuid) TO portal_app;
