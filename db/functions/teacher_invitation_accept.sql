-- The signed-in student who registered through an invitation becomes a teacher: one use of it,
-- while it is open, audited in the same statement. 'accepted'; else what stands in the way
-- ('expired', 'used', 'revoked', 'unknown', or 'teaches' for an account that teaches already).
CREATE OR REPLACE FUNCTION public.teacher_invitation_accept(p_token text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
    invitation record;
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'only a signed-in account accepts an invitation' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF public.app_role() <> 'student' THEN
        RETURN 'teaches';
    END IF;
    SELECT i.id, i.school, i.expires_at, i.uses_left, i.revoked_at INTO invitation
    FROM public.teacher_invitations i
    WHERE i.token_hash = pg_catalog.sha256(pg_catalog.convert_to(coalesce(p_token, ''), 'UTF8')) FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'unknown';
    END IF;
    IF invitation.revoked_at IS NOT NULL THEN
        RETURN 'revoked';
    END IF;
    IF invitation.expires_at <= public.app_now() THEN
        RETURN 'expired';
    END IF;
    IF invitation.uses_left = 0 THEN
        RETURN 'used';
    END IF;
    UPDATE public.teacher_invitations SET uses_left = uses_left - 1 WHERE id = invitation.id;
    UPDATE public.users SET role = 'teacher' WHERE id = me AND role = 'student';
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT public.app_now(), me, u.display_name, 'teacher-invitation.used', u.username, pg_catalog.jsonb_build_object('school', invitation.school)
    FROM public.users u WHERE u.id = me;
    RETURN 'accepted';
END
$function$;
ALTER FUNCTION teacher_invitation_accept(p_token text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION teacher_invitation_accept(p_token text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION teacher_invitation_accept(p_token text) TO portal_app;
