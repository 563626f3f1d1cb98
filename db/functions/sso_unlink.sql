-- Unlinks a provider from the caller, keeping at least one way in (a password, or another
-- linked sign-in): 'unlinked', 'last_way_in', 'not_linked'.
CREATE OR REPLACE FUNCTION public.sso_unlink(p_issuer text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL OR NOT EXISTS (SELECT 1 FROM public.external_identities i WHERE i.user_id = me AND i.kind = 'sso' AND i.issuer = p_issuer) THEN
        RETURN 'not_linked';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.users u WHERE u.id = me AND u.password_hash IS NOT NULL)
       AND NOT EXISTS (SELECT 1 FROM public.external_identities i WHERE i.user_id = me AND NOT (i.kind = 'sso' AND i.issuer = p_issuer)) THEN
        RETURN 'last_way_in';
    END IF;
    DELETE FROM public.external_identities i WHERE i.user_id = me AND i.kind = 'sso' AND i.issuer = p_issuer;
    RETURN 'unlinked';
END
$function$;
ALTER FUNCTION sso_unlink(p_issuer text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION sso_unlink(p_issuer text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sso_unlink(p_issuer text) TO portal_app;
