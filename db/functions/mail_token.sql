-- A link's token: 64 hexadecimal digits from two random UUIDs (244 random bits), made by the
-- database so that portal_app never knows it.
CREATE OR REPLACE FUNCTION public.mail_token()
 RETURNS text
 LANGUAGE sql
 VOLATILE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
$function$;
ALTER FUNCTION mail_token() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION mail_token() FROM PUBLIC;
