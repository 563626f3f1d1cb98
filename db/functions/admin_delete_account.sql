-- An admin deletes an account on its owner's request (account_erase), never their own here;
-- the audit entry names the admin and no one else. Returns whether an account was deleted.
CREATE OR REPLACE FUNCTION public.admin_delete_account(p_user uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL OR public.app_role() <> 'admin' OR p_user = me OR NOT EXISTS (SELECT FROM public.users u WHERE u.id = p_user) THEN
        RETURN false;
    END IF;
    PERFORM public.account_erase(p_user, me, 'admin');
    RETURN true;
END
$function$;
ALTER FUNCTION admin_delete_account(p_user uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION admin_delete_account(p_user uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION admin_delete_account(p_user uuid) TO portal_app;
