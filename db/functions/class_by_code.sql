-- The lookups by code and token, with qualified names.
CREATE OR REPLACE FUNCTION public.class_by_code(p_code text)
 RETURNS TABLE(id uuid, name text, teacher_name text, school_name text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT c.id, c.name, u.display_name, s.name
    FROM public.classes c JOIN public.users u ON u.id = c.teacher_id LEFT JOIN public.schools s ON s.id = c.school_id
    WHERE c.join_code = upper(btrim(p_code))
$function$;
ALTER FUNCTION class_by_code(p_code text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION class_by_code(p_code text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION class_by_code(p_code text) TO portal_app;
