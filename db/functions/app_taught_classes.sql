CREATE OR REPLACE FUNCTION public.app_taught_classes()
 RETURNS uuid[]
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(c.id), '{}') FROM public.classes c WHERE c.teacher_id = me);
END
$function$;
ALTER FUNCTION app_taught_classes() OWNER TO portal_auth;
