-- What a class's page shows changes with this: its current members with their data versions
-- (every answer, session and card of theirs changes one), its share links and its settings. For the class's
-- teacher (or an admin) only; anyone else gets NULL. One call instead of three row-level
-- security checks per member, with its plan kept for the connection.
CREATE OR REPLACE FUNCTION public.class_version(p_class uuid)
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.classes c
                   WHERE c.id = p_class AND (c.teacher_id = public.app_user_id() OR public.app_role() = 'admin')) THEN
        RETURN NULL;
    END IF;
    RETURN md5(coalesce((SELECT string_agg(m.user_id::text || ':' || u.data_version, ',' ORDER BY m.user_id)
                         FROM public.class_members m JOIN public.users u ON u.id = m.user_id
                         WHERE m.class_id = p_class AND m.left_at IS NULL), '')
               || '|' || coalesce((SELECT count(*) || ':' || max(l.created_at)::text || ':' || coalesce(max(l.revoked_at)::text, '')
                                   FROM public.share_links l WHERE l.class_id = p_class), '')
               || '|' || (SELECT c.public_boards::text FROM public.classes c WHERE c.id = p_class));
END
$function$;
ALTER FUNCTION class_version(p_class uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION class_version(p_class uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION class_version(p_class uuid) TO portal_app;
