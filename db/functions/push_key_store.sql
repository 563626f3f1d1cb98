-- The agent's first start: keeps the VAPID key it made, unless one is kept already (two agents
-- starting together keep one). Returns the private key that is kept (PEM).
CREATE OR REPLACE FUNCTION public.push_key_store(p_pem text, p_point bytea)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    INSERT INTO public.push_keys (id, private_pem, public_point, created_at) VALUES (1, p_pem, p_point, public.app_now())
    ON CONFLICT (id) DO NOTHING;
    RETURN (SELECT k.private_pem FROM public.push_keys k WHERE k.id = 1);
END
$function$;
ALTER FUNCTION push_key_store(p_pem text, p_point bytea) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION push_key_store(p_pem text, p_point bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION push_key_store(p_pem text, p_point bytea) TO portal_agent;
