-- Guests keep what they practised when they sign in: the caller proves the guest key by
-- handing over the guest cookie's token itself.
CREATE OR REPLACE FUNCTION public.claim_guest_sessions(p_guest_token text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    owner uuid := public.app_user_id();
    key bytea := sha256(convert_to(p_guest_token, 'UTF8'));
    claimed integer;
BEGIN
    IF owner IS NULL OR p_guest_token IS NULL OR length(p_guest_token) < 32 THEN
        RETURN 0;
    END IF;
    UPDATE public.answers a SET user_id = owner, rating = CASE WHEN a.correct THEN 3 ELSE 1 END
    FROM public.study_sessions s
    WHERE s.id = a.session_id AND s.guest_key = key AND s.user_id IS NULL AND a.user_id IS NULL;
    UPDATE public.study_sessions SET user_id = owner, guest_key = NULL WHERE guest_key = key AND user_id IS NULL;
    GET DIAGNOSTICS claimed = ROW_COUNT;
    RETURN claimed;
END
$function$;
ALTER FUNCTION claim_guest_sessions(p_guest_token text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION claim_guest_sessions(p_guest_token text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION claim_guest_sessions(p_guest_token text) TO portal_app;
