-- The account linked to (kind, issuer, subject), made now if there is none (no password; a
-- teacher when the platform or provider says so, never an admin; `p_fallback` names someone
-- who gave no name), and a student raised to teacher when it says so later. Only for the
-- sign-in functions below, which have checked who the user is.
CREATE OR REPLACE FUNCTION public.external_account(p_kind text, p_issuer text, p_subject text, p_name text, p_fallback text, p_teacher boolean, p_at timestamp with time zone, OUT id uuid, OUT disabled boolean)
 RETURNS record
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
#variable_conflict use_column
DECLARE
    account record;
BEGIN
    SELECT u.id, u.role, u.disabled_at INTO account FROM public.external_identities i JOIN public.users u ON u.id = i.user_id
    WHERE i.kind = p_kind AND i.issuer = p_issuer AND i.subject = p_subject;
    IF NOT FOUND THEN
        INSERT INTO public.users (username, display_name, password_hash, role)
        VALUES (p_kind || '-' || replace(gen_random_uuid()::text, '-', ''), coalesce(nullif(btrim(left(p_name, 80)), ''), p_fallback), NULL,
                CASE WHEN p_teacher THEN 'teacher' ELSE 'student' END)
        RETURNING users.id, users.role, users.disabled_at INTO account;
        INSERT INTO public.external_identities (kind, issuer, subject, user_id) VALUES (p_kind, p_issuer, p_subject, account.id);
    ELSIF account.disabled_at IS NULL THEN
        UPDATE public.external_identities i SET last_used_at = p_at WHERE i.kind = p_kind AND i.issuer = p_issuer AND i.subject = p_subject;
        IF p_teacher AND account.role = 'student' THEN
            UPDATE public.users u SET role = 'teacher' WHERE u.id = account.id;
        END IF;
    END IF;
    id := account.id;
    disabled := account.disabled_at IS NOT NULL;
END
$function$;
ALTER FUNCTION external_account(p_kind text, p_issuer text, p_subject text, p_name text, p_fallback text, p_teacher boolean, p_at timestamp with time zone, OUT id uuid, OUT disabled boolean) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION external_account(p_kind text, p_issuer text, p_subject text, p_name text, p_fallback text, p_teacher boolean, p_at timestamp with time zone, OUT id uuid, OUT disabled boolean) FROM PUBLIC;
