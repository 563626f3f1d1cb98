-- The first step of a form that makes something: claims its one-time token for the sender (the
-- signed-in account, else the guest's cookie). 'new' when this is the first send (the caller
-- goes on to make it, in the same transaction: if that fails, the claim goes with it); 'sent'
-- with where the first send led when the same sender sends it again (a second send waits here
-- until the first has committed or failed); 'foreign' when the token is another sender's or
-- the sender is nobody — the caller refuses and makes nothing. With `p_fresh_for`, a send is the
-- same only within that long of the first: a key made from a form's content (the same fields sent
-- again later are a new send) is claimed anew after it.
CREATE OR REPLACE FUNCTION public.form_send_begin(p_token text, p_fresh_for interval DEFAULT NULL)
 RETURNS TABLE(state text, location text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
#variable_conflict use_column
DECLARE
    me uuid := public.app_user_id();
    guest bytea := CASE WHEN public.app_user_id() IS NULL THEN public.app_guest_key() END;
    token bytea := sha256(convert_to(coalesce(p_token, ''), 'UTF8'));
    earlier record;
BEGIN
    IF (me IS NULL AND guest IS NULL) OR length(coalesce(p_token, '')) NOT BETWEEN 20 AND 100 THEN
        RETURN QUERY SELECT 'foreign'::text, NULL::text;
        RETURN;
    END IF;
    INSERT INTO public.form_sends (token_hash, user_id, guest_hash, created_at)
    VALUES (token, me, guest, public.app_now())
    ON CONFLICT (token_hash) DO NOTHING;
    IF FOUND THEN
        RETURN QUERY SELECT 'new'::text, NULL::text;
        RETURN;
    END IF;
    SELECT f.* INTO earlier FROM public.form_sends f WHERE f.token_hash = token FOR UPDATE;
    IF earlier.user_id IS NOT DISTINCT FROM me AND earlier.guest_hash IS NOT DISTINCT FROM guest
       AND p_fresh_for IS NOT NULL AND earlier.created_at < public.app_now() - p_fresh_for THEN
        UPDATE public.form_sends f SET created_at = public.app_now(), location = NULL WHERE f.token_hash = token;
        RETURN QUERY SELECT 'new'::text, NULL::text;
    ELSIF earlier.user_id IS NOT DISTINCT FROM me AND earlier.guest_hash IS NOT DISTINCT FROM guest THEN
        RETURN QUERY SELECT 'sent'::text, earlier.location;
    ELSE
        RETURN QUERY SELECT 'foreign'::text, NULL::text;
    END IF;
END
$function$;
ALTER FUNCTION form_send_begin(p_token text, p_fresh_for interval) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION form_send_begin(p_token text, p_fresh_for interval) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION form_send_begin(p_token text, p_fresh_for interval) TO portal_app;
