-- Joins the caller to the class with this code (again, if they had left); the class's id, or
-- NULL for an unknown code.
CREATE OR REPLACE FUNCTION public.join_class(p_code text)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
    joined_class uuid;
BEGIN
    IF me IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT c.id INTO joined_class FROM public.classes c WHERE c.join_code = upper(btrim(p_code));
    IF joined_class IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO public.class_members AS m (class_id, user_id, joined_at) VALUES (joined_class, me, public.app_now())
    ON CONFLICT (class_id, user_id) DO UPDATE SET left_at = NULL, joined_at = EXCLUDED.joined_at WHERE m.left_at IS NOT NULL;
    RETURN joined_class;
END
$function$;
ALTER FUNCTION join_class(p_code text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION join_class(p_code text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION join_class(p_code text) TO portal_app;
