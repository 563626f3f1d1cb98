-- The caller's calendar feed at a new secret address: the token's hash replaces any earlier
-- one (the old address stops working at once). The token itself is the caller's to show once.
CREATE OR REPLACE FUNCTION public.calendar_feed_start(p_token text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL OR length(coalesce(p_token, '')) < 32 THEN
        RAISE EXCEPTION 'a calendar feed needs a signed-in student and a long random token' USING ERRCODE = '42501';
    END IF;
    INSERT INTO public.calendar_feeds (user_id, token_hash, created_at)
    VALUES (me, sha256(convert_to(p_token, 'UTF8')), public.app_now())
    ON CONFLICT (user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = EXCLUDED.created_at,
                                        body = NULL, made_for = NULL, changed_at = NULL;
END
$function$;
ALTER FUNCTION calendar_feed_start(p_token text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION calendar_feed_start(p_token text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION calendar_feed_start(p_token text) TO portal_app;
