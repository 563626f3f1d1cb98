-- What an invitation's token names, for the registration page: its school and whether it is
-- open, or expired, used up or revoked. No row for a token that is no invitation's.
CREATE OR REPLACE FUNCTION public.teacher_invitation_look(p_token text)
 RETURNS TABLE(school text, state text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT i.school,
           CASE WHEN i.revoked_at IS NOT NULL THEN 'revoked' WHEN i.expires_at <= public.app_now() THEN 'expired'
                WHEN i.uses_left = 0 THEN 'used' ELSE 'open' END
    FROM public.teacher_invitations i
    WHERE i.token_hash = pg_catalog.sha256(pg_catalog.convert_to(coalesce(p_token, ''), 'UTF8'))
$function$;
ALTER FUNCTION teacher_invitation_look(p_token text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION teacher_invitation_look(p_token text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION teacher_invitation_look(p_token text) TO portal_app;
