-- portal create-admin (the owner only), with a qualified body.
CREATE OR REPLACE FUNCTION public.auth_create_user(p_username text, p_display_name text, p_password_hash text, p_role text)
 RETURNS uuid
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    INSERT INTO public.users (username, display_name, password_hash, role) VALUES (p_username, p_display_name, p_password_hash, p_role)
    ON CONFLICT (lower(username)) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role, disabled_at = NULL
    RETURNING id
$function$;
ALTER FUNCTION auth_create_user(p_username text, p_display_name text, p_password_hash text, p_role text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_create_user(p_username text, p_display_name text, p_password_hash text, p_role text) FROM PUBLIC;
