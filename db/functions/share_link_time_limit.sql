-- A mock assignment's own time limit in seconds (nil: the exam's). Read by study_sessions_admit
-- for a session's deadline and with a session's page (whether its time includes extra time);
-- a session's student cannot read the link itself.
CREATE OR REPLACE FUNCTION public.share_link_time_limit(p_link uuid)
 RETURNS integer
 LANGUAGE sql
 STABLE STRICT SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT l.time_limit_minutes * 60 FROM public.share_links l WHERE l.id = p_link
$function$;
ALTER FUNCTION share_link_time_limit(p_link uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION share_link_time_limit(p_link uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION share_link_time_limit(p_link uuid) TO portal_app;
