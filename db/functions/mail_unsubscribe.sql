-- Turns off the reminders of the student whose message carried the link with p_token, without
-- signing in (the token is the proof). True when the link was one of a live account's.
CREATE OR REPLACE FUNCTION public.mail_unsubscribe(p_token text)
 RETURNS boolean
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE public.users u SET digest = 'off'
    FROM public.mail_unsubscribes m
    WHERE m.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) AND m.user_id = u.id
    RETURNING true
$function$;
ALTER FUNCTION mail_unsubscribe(p_token text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION mail_unsubscribe(p_token text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION mail_unsubscribe(p_token text) TO portal_app;
