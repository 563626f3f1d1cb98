-- The audit log's entries about the caller's account (it is their target) or made by them, for
-- the caller's own data export: the log is otherwise for admins only.
CREATE OR REPLACE FUNCTION public.my_audit_entries()
 RETURNS TABLE(at timestamp with time zone, actor_name text, action text, target text, details jsonb)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT l.at, l.actor_name, l.action, l.target, l.details
    FROM public.audit_log l
    WHERE public.app_user_id() IS NOT NULL
      AND (l.actor_id = public.app_user_id() OR l.target = (SELECT u.username FROM public.users u WHERE u.id = public.app_user_id()))
    ORDER BY l.at
$function$;
ALTER FUNCTION my_audit_entries() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION my_audit_entries() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION my_audit_entries() TO portal_app;
