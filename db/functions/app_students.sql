CREATE OR REPLACE FUNCTION public.app_students()
 RETURNS uuid[]
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL OR public.app_role() NOT IN ('teacher', 'admin') THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(DISTINCT m.user_id), '{}')
            FROM public.class_members m JOIN public.classes c ON c.id = m.class_id
            WHERE m.left_at IS NULL AND c.teacher_id = me);
END
$function$;
ALTER FUNCTION app_students() OWNER TO portal_auth;
