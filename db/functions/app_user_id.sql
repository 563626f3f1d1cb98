CREATE OR REPLACE FUNCTION public.app_user_id()
 RETURNS uuid
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    RETURN (SELECT s.user_id FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
            WHERE s.token_hash = pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.session_token', true), ''), 'UTF8'))
              AND u.disabled_at IS NULL);
END
$function$;
ALTER FUNCTION app_user_id() OWNER TO portal_auth;
GRANT EXECUTE ON FUNCTION app_user_id() TO portal_app;
