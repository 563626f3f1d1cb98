CREATE OR REPLACE FUNCTION public.leaderboard_refreshed_at()
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT max(r.refreshed_at) FROM public.leaderboard_refreshes r
$function$;
ALTER FUNCTION leaderboard_refreshed_at() OWNER TO portal_leaderboard;
REVOKE ALL ON FUNCTION leaderboard_refreshed_at() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION leaderboard_refreshed_at() TO portal_app;
