-- How many seconds a password reset from this address for this username must wait, 0 when it
-- may go ahead; counts the try when p_take. The one place the limits are stated: 20 tries an
-- address and 5 a username in ten minutes, so a code cannot be guessed (with p_take false the
-- caller asks before hashing the new password, so a flood costs no hashing).
CREATE OR REPLACE FUNCTION public.auth_reset_wait(p_address text, p_username text, p_take boolean)
 RETURNS integer
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT greatest(public.rate_limit('reset-address', p_address, 20, 600, p_take),
                    public.rate_limit('reset-account', lower(btrim(p_username)), 5, 600, p_take))
$function$;
ALTER FUNCTION auth_reset_wait(p_address text, p_username text, p_take boolean) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_reset_wait(p_address text, p_username text, p_take boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_reset_wait(p_address text, p_username text, p_take boolean) TO portal_app;
