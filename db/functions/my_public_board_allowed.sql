-- Whether the signed-in caller may appear on public leaderboards (public_board_allowed), for
-- their settings page to say so; false for nobody.
CREATE OR REPLACE FUNCTION public.my_public_board_allowed()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    RETURN coalesce((SELECT public.public_board_allowed(u.id, u.made_by) FROM public.users u WHERE u.id = public.app_user_id()), false);
END
$function$;
ALTER FUNCTION my_public_board_allowed() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION my_public_board_allowed() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION my_public_board_allowed() TO portal_app;
