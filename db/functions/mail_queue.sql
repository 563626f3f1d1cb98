-- Puts one message in the outbox and wakes the sender. Called only by the database's own
-- functions, which choose the recipient; nobody is granted it.
CREATE OR REPLACE FUNCTION public.mail_queue(
    p_purpose text, p_recipient text, p_name text, p_locale text, p_subject text, p_text text, p_html text, p_link_path text, p_secret text)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    INSERT INTO public.mail_outbox (purpose, recipient, recipient_name, locale, subject, text_body, html_body, link_path, secret, created_at, next_attempt_at)
    VALUES (p_purpose, p_recipient, left(coalesce(p_name, ''), 200), p_locale, left(p_subject, 300), p_text, p_html, p_link_path, p_secret,
            public.app_now(), public.app_now());
    SELECT pg_notify('mail_outbox', '');
$function$;
ALTER FUNCTION mail_queue(p_purpose text, p_recipient text, p_name text, p_locale text, p_subject text, p_text text, p_html text, p_link_path text, p_secret text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION mail_queue(p_purpose text, p_recipient text, p_name text, p_locale text, p_subject text, p_text text, p_html text, p_link_path text, p_secret text) FROM PUBLIC;
