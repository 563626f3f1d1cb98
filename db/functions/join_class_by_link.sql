-- Joins the caller to the class of a live share link that joins its class.
CREATE OR REPLACE FUNCTION public.join_class_by_link(p_link uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
    joined_class uuid;
BEGIN
    SELECT l.class_id INTO joined_class FROM public.share_links l
    WHERE l.id = p_link AND l.joins_class AND l.revoked_at IS NULL AND (l.expires_at IS NULL OR l.expires_at > public.app_now());
    IF me IS NULL OR joined_class IS NULL THEN
        RETURN false;
    END IF;
    INSERT INTO public.class_members AS m (class_id, user_id, joined_at) VALUES (joined_class, me, public.app_now())
    ON CONFLICT (class_id, user_id) DO UPDATE SET left_at = NULL, joined_at = EXCLUDED.joined_at WHERE m.left_at IS NOT NULL;
    RETURN true;
END
$function$;
ALTER FUNCTION join_class_by_link(p_link uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION join_class_by_link(p_link uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION join_class_by_link(p_link uuid) TO portal_app;
