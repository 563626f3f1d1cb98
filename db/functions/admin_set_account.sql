-- Managing accounts from the admin dashboard: an admin makes someone a teacher or an admin,
-- or disables an account (which ends its sessions at once: users_credentials_changed) and
-- enables it again. Only through this function: portal_app may not update a role or
-- disabled_at itself. Only an admin, never on their own account (an admin cannot lock the
-- dashboard by mistake), and always with its audit entry, written here in the same statement.
-- True when the account exists (changed or already so); false for an unknown one.
CREATE OR REPLACE FUNCTION public.admin_set_account(p_user uuid, p_role text, p_disabled boolean)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
    before record;
BEGIN
    IF me IS NULL OR public.app_role() <> 'admin' THEN
        RAISE EXCEPTION 'only an admin manages accounts' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_role IS NULL OR p_role NOT IN ('student', 'teacher', 'admin') OR p_disabled IS NULL THEN
        RAISE EXCEPTION 'a role is student, teacher or admin' USING ERRCODE = 'check_violation';
    END IF;
    IF p_user = me THEN
        RAISE EXCEPTION 'an admin does not change their own role or disable themselves' USING ERRCODE = 'check_violation';
    END IF;
    SELECT u.username, u.role, u.disabled_at IS NOT NULL AS disabled INTO before
    FROM public.users u WHERE u.id = p_user FOR UPDATE;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    IF before.role = p_role AND before.disabled = p_disabled THEN
        RETURN true;
    END IF;
    UPDATE public.users
    SET role = p_role, disabled_at = CASE WHEN p_disabled THEN COALESCE(disabled_at, public.app_now()) END
    WHERE id = p_user;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT public.app_now(), me, u.display_name, 'account.change', before.username,
           pg_catalog.jsonb_build_object('role_before', before.role, 'role', p_role,
                                         'disabled_before', before.disabled, 'disabled', p_disabled)
    FROM public.users u WHERE u.id = me;
    RETURN true;
END
$function$;
ALTER FUNCTION admin_set_account(p_user uuid, p_role text, p_disabled boolean) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION admin_set_account(p_user uuid, p_role text, p_disabled boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION admin_set_account(p_user uuid, p_role text, p_disabled boolean) TO portal_app;
