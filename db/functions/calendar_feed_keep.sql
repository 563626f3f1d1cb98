-- Keeps the text made for the feed with token p_token from facts digested as p_made_for; when the
-- text differs from what was kept, it changed now. Returns when it last changed (Last-Modified).
CREATE OR REPLACE FUNCTION public.calendar_feed_keep(p_token text, p_made_for text, p_body text)
 RETURNS timestamptz
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE public.calendar_feeds f
    SET body = p_body, made_for = p_made_for,
        changed_at = CASE WHEN f.body IS DISTINCT FROM p_body OR f.changed_at IS NULL THEN date_trunc('second', public.app_now()) ELSE f.changed_at END
    WHERE f.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    RETURNING f.changed_at
$function$;
ALTER FUNCTION calendar_feed_keep(p_token text, p_made_for text, p_body text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION calendar_feed_keep(p_token text, p_made_for text, p_body text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION calendar_feed_keep(p_token text, p_made_for text, p_body text) TO portal_app;
