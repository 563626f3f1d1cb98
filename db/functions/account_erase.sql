-- Erases an account (for auth_delete_own_account and admin_delete_account, which decide who may):
-- its study sessions and answers become anonymous (no user, one random key for the sessions,
-- the device's answer times replaced by the server's time of receipt), its name is taken out of
-- the audit log, and the account row goes with everything that hangs on it (sign-ins, cards,
-- weights, exam dates, classes and memberships, addresses, identities, reports, live players).
-- An audit entry without personal data says it happened. Nobody is granted it.
CREATE OR REPLACE FUNCTION public.account_erase(p_user uuid, p_actor uuid, p_by text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    account record;
    anonymous uuid := gen_random_uuid();
BEGIN
    SELECT u.id, u.username, u.role INTO account FROM public.users u WHERE u.id = p_user FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    UPDATE public.study_sessions SET user_id = NULL, anonymous_key = anonymous WHERE user_id = p_user;
    UPDATE public.answers SET user_id = NULL, answered_at = received_at WHERE user_id = p_user;
    UPDATE public.audit_log SET target = 'a deleted account' WHERE target = account.username;
    UPDATE public.audit_log SET actor_name = 'a deleted account' WHERE actor_id = p_user;
    DELETE FROM public.users WHERE id = p_user;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT now_at, a.id, coalesce(a.display_name, 'the account itself'), 'account.deleted', '',
           pg_catalog.jsonb_build_object('by', p_by, 'role', account.role)
    FROM (SELECT 1) one LEFT JOIN public.users a ON a.id = p_actor;
END
$function$;
ALTER FUNCTION account_erase(p_user uuid, p_actor uuid, p_by text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION account_erase(p_user uuid, p_actor uuid, p_by text) FROM PUBLIC;
