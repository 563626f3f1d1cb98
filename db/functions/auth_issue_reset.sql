-- Issues a one-time code for an account whose owner forgot the password: the caller must be an
-- admin, or a teacher of a class the account is a current member of (a student's account).
-- Only the code's hash arrives here; the caller shows the code once. An earlier unused code of
-- the account stops working; the code lasts a day. Audited with who issued it. A teacher may
-- issue at most 300 a day. Returns 'issued', 'external' (the account signs in with its school:
-- no password to reset), 'limited' or 'unknown' (no such account, or not one the caller may
-- reset: the same answer).
CREATE OR REPLACE FUNCTION public.auth_issue_reset(p_user uuid, p_code_hash bytea)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    my_role text := public.app_role();
    account record;
BEGIN
    IF me IS NULL OR p_code_hash IS NULL OR length(p_code_hash) <> 32 OR p_user = me THEN
        RETURN 'unknown';
    END IF;
    SELECT u.id, u.username, u.role, u.password_hash, u.made_by INTO account FROM public.users u WHERE u.id = p_user;
    IF NOT FOUND OR NOT (my_role = 'admin' OR (my_role = 'teacher' AND account.role = 'student' AND p_user = ANY (public.app_students()))) THEN
        RETURN 'unknown';
    END IF;
    -- No password and not made by a teacher (who may hand a first one out): a school's sign-in.
    IF account.password_hash IS NULL AND account.made_by IS NULL THEN
        RETURN 'external';
    END IF;
    IF my_role <> 'admin' AND public.rate_limit('reset-codes', me::text, 300, 86400, true) > 0 THEN
        RETURN 'limited';
    END IF;
    DELETE FROM public.password_resets r WHERE r.user_id = p_user AND r.used_at IS NULL;
    DELETE FROM public.password_resets r WHERE r.id IN (SELECT x.id FROM public.password_resets x WHERE x.expires_at < now_at - interval '30 days' LIMIT 20);
    INSERT INTO public.password_resets (user_id, code_hash, issued_by, issued_at, expires_at)
    VALUES (p_user, p_code_hash, me, now_at, now_at + interval '1 day');
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT now_at, me, u.display_name, 'account.reset-code', account.username, pg_catalog.jsonb_build_object('role', my_role)
    FROM public.users u WHERE u.id = me;
    RETURN 'issued';
END
$function$;
ALTER FUNCTION auth_issue_reset(p_user uuid, p_code_hash bytea) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_issue_reset(p_user uuid, p_code_hash bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_issue_reset(p_user uuid, p_code_hash bytea) TO portal_app;
