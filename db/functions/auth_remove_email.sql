-- The signed-in account stops using its address: it is erased, links waiting for another are
-- dropped, and the address is told (p_subject, p_text, p_html). Returns whether one was removed.
CREATE OR REPLACE FUNCTION public.auth_remove_email(p_locale text, p_subject text, p_text text, p_html text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
    removed text;
    name text;
BEGIN
    DELETE FROM public.email_verifications v WHERE v.user_id = me AND v.used_at IS NULL;
    DELETE FROM public.user_emails e WHERE e.user_id = me RETURNING e.email INTO removed;
    IF removed IS NULL THEN
        RETURN false;
    END IF;
    SELECT u.display_name INTO name FROM public.users u WHERE u.id = me;
    PERFORM public.mail_queue('email-changed', removed, name, p_locale, p_subject, p_text, p_html, NULL, NULL);
    RETURN true;
END
$function$;
ALTER FUNCTION auth_remove_email(p_locale text, p_subject text, p_text text, p_html text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_remove_email(p_locale text, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_remove_email(p_locale text, p_subject text, p_text text, p_html text) TO portal_app;
