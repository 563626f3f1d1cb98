-- Whether the signed-in caller's account was made by a teacher (a pupil's: no e-mail, public
-- leaderboards only where the teacher allows), for their settings page to say so.
CREATE OR REPLACE FUNCTION public.my_account_made_by_teacher()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    RETURN coalesce((SELECT u.made_by IS NOT NULL FROM public.users u WHERE u.id = public.app_user_id()), false);
END
$function$;
ALTER FUNCTION my_account_made_by_teacher() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION my_account_made_by_teacher() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION my_account_made_by_teacher() TO portal_app;
