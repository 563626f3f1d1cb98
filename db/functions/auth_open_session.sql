-- A new session for the user, by its token's hash: only for the definer functions below,
-- which have proved who the user is (no one else may call it).
CREATE OR REPLACE FUNCTION public.auth_open_session(p_user uuid, p_token text, p_csrf text, p_user_agent text, p_at timestamp with time zone)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    INSERT INTO public.auth_sessions (user_id, token_hash, csrf_token, created_at, last_seen_at, user_agent)
    VALUES (p_user, sha256(convert_to(p_token, 'UTF8')), p_csrf, p_at, p_at, left(p_user_agent, 200))
$function$;
ALTER FUNCTION auth_open_session(p_user uuid, p_token text, p_csrf text, p_user_agent text, p_at timestamp with time zone) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_open_session(p_user uuid, p_token text, p_csrf text, p_user_agent text, p_at timestamp with time zone) FROM PUBLIC;
