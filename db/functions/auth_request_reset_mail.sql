-- "Forgot password?" by e-mail: for an account whose username or verified address is p_login,
-- makes a link's token (an hour, once; only its hash kept, an earlier unused one dropped) and
-- queues the message — p_text and p_html, in the asker's language, hold `{link}` where the
-- sender puts the link — to that account's verified address. The answer is the same whether
-- or not an account matches, has an address, or was asked for too often (3 an hour per account:
-- nothing more is sent); only the asking address's limit (10 an hour) says to wait, in seconds.
-- An account of a school's sign-in (no password and not made by a teacher) gets no link.
CREATE OR REPLACE FUNCTION public.auth_request_reset_mail(p_login text, p_address text, p_locale text, p_subject text, p_text text, p_html text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    login_name text := lower(btrim(coalesce(p_login, '')));
    wait integer;
    account record;
    token text;
BEGIN
    wait := public.rate_limit('reset-mail-address', coalesce(p_address, ''), 10, 3600, true);
    IF wait > 0 THEN
        RETURN wait;
    END IF;
    -- Made whether or not an account matches: the same work either way, as far as it can be.
    token := public.mail_token();
    SELECT u.id, u.display_name, e.email INTO account
    FROM public.users u JOIN public.user_emails e ON e.user_id = u.id
    WHERE (lower(u.username) = login_name OR lower(e.email) = login_name)
      AND u.disabled_at IS NULL AND (u.password_hash IS NOT NULL OR u.made_by IS NOT NULL)
    LIMIT 1;
    IF NOT FOUND OR public.rate_limit('reset-mail-account', account.id::text, 3, 3600, true) > 0 THEN
        RETURN 0;
    END IF;
    DELETE FROM public.password_resets r WHERE r.user_id = account.id AND r.used_at IS NULL AND r.by_mail;
    INSERT INTO public.password_resets (user_id, code_hash, issued_by, issued_at, expires_at, by_mail)
    VALUES (account.id, sha256(convert_to(token, 'UTF8')), NULL, now_at, now_at + interval '1 hour', true);
    PERFORM public.mail_queue('password-reset', account.email, account.display_name, p_locale, p_subject, p_text, p_html, '/reset/', token);
    RETURN 0;
END
$function$;
ALTER FUNCTION auth_request_reset_mail(p_login text, p_address text, p_locale text, p_subject text, p_text text, p_html text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_request_reset_mail(p_login text, p_address text, p_locale text, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_request_reset_mail(p_login text, p_address text, p_locale text, p_subject text, p_text text, p_html text) TO portal_app;
