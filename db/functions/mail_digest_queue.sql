-- Queues the reminder worded for p_user (the sender drafted it in their language from what
-- mail_digests_take said) to their verified address, with a link that turns reminders off:
-- its token is made here, only its hash kept (60 days). Nothing when they turned reminders off
-- or lost their address meanwhile.
CREATE OR REPLACE FUNCTION public.mail_digest_queue(p_user uuid, p_locale text, p_subject text, p_text text, p_html text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    account record;
    token text := public.mail_token();
BEGIN
    SELECT u.display_name, e.email INTO account
    FROM public.users u JOIN public.user_emails e ON e.user_id = u.id
    WHERE u.id = p_user AND u.digest <> 'off' AND u.disabled_at IS NULL;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    DELETE FROM public.mail_unsubscribes m WHERE m.created_at < public.app_now() - interval '60 days';
    INSERT INTO public.mail_unsubscribes (token_hash, user_id, created_at) VALUES (sha256(convert_to(token, 'UTF8')), p_user, public.app_now());
    PERFORM public.mail_queue('digest', account.email, account.display_name, p_locale, p_subject, p_text, p_html, '/unsubscribe/', token);
    RETURN true;
END
$function$;
ALTER FUNCTION mail_digest_queue(p_user uuid, p_locale text, p_subject text, p_text text, p_html text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION mail_digest_queue(p_user uuid, p_locale text, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION mail_digest_queue(p_user uuid, p_locale text, p_subject text, p_text text, p_html text) TO portal_agent;
