-- The signed-in account asks to use p_email: a link's token (a day, once; earlier unused ones
-- dropped) is made and the message — p_text and p_html hold `{link}` — queued to that address.
-- Nothing changes until the link is opened (auth_verify_email). At most 5 an hour per account.
-- An account a teacher made holds no e-mail (a young pupil's). Returns 'sent', 'same' (already
-- the account's verified address), 'limited', 'invalid', 'teacher-made' or 'unknown' (nobody
-- signed in).
CREATE OR REPLACE FUNCTION public.auth_request_email(p_email text, p_locale text, p_subject text, p_text text, p_html text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    address text := btrim(coalesce(p_email, ''));
    token text;
    name text;
BEGIN
    IF me IS NULL THEN
        RETURN 'unknown';
    END IF;
    IF EXISTS (SELECT FROM public.users u WHERE u.id = me AND u.made_by IS NOT NULL) THEN
        RETURN 'teacher-made';
    END IF;
    IF length(address) NOT BETWEEN 3 AND 254 OR address !~ '^[!-~]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$' THEN
        RETURN 'invalid';
    END IF;
    IF EXISTS (SELECT FROM public.user_emails e WHERE e.user_id = me AND lower(e.email) = lower(address)) THEN
        RETURN 'same';
    END IF;
    IF public.rate_limit('email-verify', me::text, 5, 3600, true) > 0 THEN
        RETURN 'limited';
    END IF;
    token := public.mail_token();
    DELETE FROM public.email_verifications v WHERE v.user_id = me AND v.used_at IS NULL;
    INSERT INTO public.email_verifications (user_id, email, token_hash, created_at, expires_at)
    VALUES (me, address, sha256(convert_to(token, 'UTF8')), now_at, now_at + interval '1 day');
    SELECT u.display_name INTO name FROM public.users u WHERE u.id = me;
    PERFORM public.mail_queue('email-verify', address, name, p_locale, p_subject, p_text, p_html, '/verify-email/', token);
    RETURN 'sent';
END
$function$;
ALTER FUNCTION auth_request_email(p_email text, p_locale text, p_subject text, p_text text, p_html text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_request_email(p_email text, p_locale text, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_request_email(p_email text, p_locale text, p_subject text, p_text text, p_html text) TO portal_app;
