-- The caller's browser subscribed: its endpoint and keys kept (the same endpoint again replaces
-- its keys, and moves to the caller if another account had it on this browser); a student keeps
-- their ten newest devices. Returns the subscription's id.
CREATE OR REPLACE FUNCTION public.push_subscribe(p_endpoint text, p_p256dh bytea, p_auth bytea)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
    made uuid;
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'only a signed-in student subscribes' USING ERRCODE = '42501';
    END IF;
    INSERT INTO public.push_subscriptions (user_id, endpoint, p256dh, auth, created_at)
    VALUES (me, p_endpoint, p_p256dh, p_auth, public.app_now())
    ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, created_at = EXCLUDED.created_at
    RETURNING id INTO made;
    DELETE FROM public.push_subscriptions s WHERE s.user_id = me AND s.id NOT IN (
        SELECT n.id FROM public.push_subscriptions n WHERE n.user_id = me ORDER BY n.created_at DESC, n.id LIMIT 10);
    RETURN made;
END
$function$;
ALTER FUNCTION push_subscribe(p_endpoint text, p_p256dh bytea, p_auth bytea) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION push_subscribe(p_endpoint text, p_p256dh bytea, p_auth bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_subscribe(p_endpoint text, p_p256dh bytea, p_auth bytea) TO portal_app;
