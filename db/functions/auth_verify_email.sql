-- Opens an address's link: with a live token the address becomes the account's (whoever opens
-- it, signed in or not: the link is the proof), and the address it replaces, if any, is told
-- with p_subject, p_text and p_html (in the opener's language). Returns 'verified', 'taken'
-- (another account verified this address first) or 'expired' (no live token).
CREATE OR REPLACE FUNCTION public.auth_verify_email(p_token text, p_locale text, p_subject text, p_text text, p_html text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    link record;
    previous text;
    name text;
BEGIN
    UPDATE public.email_verifications v SET used_at = now_at
    WHERE v.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) AND v.used_at IS NULL AND v.expires_at > now_at
    RETURNING v.* INTO link;
    IF NOT FOUND THEN
        RETURN 'expired';
    END IF;
    IF EXISTS (SELECT FROM public.user_emails e WHERE lower(e.email) = lower(link.email) AND e.user_id <> link.user_id) THEN
        RETURN 'taken';
    END IF;
    SELECT e.email INTO previous FROM public.user_emails e WHERE e.user_id = link.user_id;
    INSERT INTO public.user_emails (user_id, email, verified_at) VALUES (link.user_id, link.email, now_at)
    ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, verified_at = EXCLUDED.verified_at;
    IF previous IS NOT NULL AND lower(previous) <> lower(link.email) THEN
        SELECT u.display_name INTO name FROM public.users u WHERE u.id = link.user_id;
        PERFORM public.mail_queue('email-changed', previous, name, p_locale, p_subject, p_text, p_html, NULL, NULL);
    END IF;
    RETURN 'verified';
END
$function$;
ALTER FUNCTION auth_verify_email(p_token text, p_locale text, p_subject text, p_text text, p_html text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_verify_email(p_token text, p_locale text, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_verify_email(p_token text, p_locale text, p_subject text, p_text text, p_html text) TO portal_app;
