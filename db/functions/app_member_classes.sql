CREATE OR REPLACE FUNCTION public.app_member_classes()
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
    RETURN (SELECT COALESCE(array_agg(m.class_id), '{}') FROM public.class_members m WHERE m.user_id = me AND m.left_at IS NULL);
END
$function$;
ALTER FUNCTION app_member_classes() OWNER TO portal_auth;
