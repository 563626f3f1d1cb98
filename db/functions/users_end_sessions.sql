-- Ends every signed-in session of a user whose credentials changed (password, disabled).
CREATE OR REPLACE FUNCTION public.users_end_sessions()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    DELETE FROM public.auth_sessions WHERE user_id = NEW.id;
    RETURN NEW;
END
$function$;
ALTER FUNCTION users_end_sessions() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION users_end_sessions() FROM PUBLIC;
