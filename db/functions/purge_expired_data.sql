-- Retention, done by the background job: a guest's practice sessions (with their answers) and
-- live-event entries older than p_days, and student accounts registered more than p_days ago
-- and never used — no study session, class, address, school sign-in, live event or sign-in since
-- — are deleted, at most p_limit of each per call. Accounts a teacher made are the teacher's to
-- remove. One audit entry counts the accounts, naming none. Returns how many of each went.
-- Never less than 30 days, whatever the caller asks: the job runs as portal_app, which must not
-- be able to purge what is younger.
CREATE OR REPLACE FUNCTION public.purge_expired_data(p_days integer, p_limit integer)
 RETURNS TABLE(guest_sessions integer, guest_players integer, accounts integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    cutoff timestamptz := public.app_now() - make_interval(days => greatest(p_days, 30));
    batch integer := least(greatest(p_limit, 1), 5000);
    sessions_gone integer;
    players_gone integer;
    accounts_gone integer;
BEGIN
    DELETE FROM public.study_sessions s WHERE s.id IN (
        SELECT x.id FROM public.study_sessions x WHERE x.guest_key IS NOT NULL AND x.started_at < cutoff LIMIT batch);
    GET DIAGNOSTICS sessions_gone = ROW_COUNT;
    DELETE FROM public.live_participants p WHERE p.id IN (
        SELECT x.id FROM public.live_participants x WHERE x.guest_key IS NOT NULL AND x.joined_at < cutoff LIMIT batch);
    GET DIAGNOSTICS players_gone = ROW_COUNT;
    DELETE FROM public.users u WHERE u.id IN (
        SELECT x.id FROM public.users x
        WHERE x.role = 'student' AND x.made_by IS NULL AND x.created_at < cutoff
          AND NOT EXISTS (SELECT FROM public.study_sessions s WHERE s.user_id = x.id)
          AND NOT EXISTS (SELECT FROM public.class_members m WHERE m.user_id = x.id)
          AND NOT EXISTS (SELECT FROM public.user_emails e WHERE e.user_id = x.id)
          AND NOT EXISTS (SELECT FROM public.external_identities i WHERE i.user_id = x.id)
          AND NOT EXISTS (SELECT FROM public.live_participants p WHERE p.user_id = x.id)
          AND NOT EXISTS (SELECT FROM public.auth_sessions a WHERE a.user_id = x.id AND a.last_seen_at >= cutoff)
        LIMIT batch);
    GET DIAGNOSTICS accounts_gone = ROW_COUNT;
    IF accounts_gone > 0 THEN
        INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
        VALUES (public.app_now(), NULL, 'retention', 'account.deleted', '',
                pg_catalog.jsonb_build_object('by', 'retention', 'count', accounts_gone, 'days', greatest(p_days, 30)));
    END IF;
    RETURN QUERY SELECT sessions_gone, players_gone, accounts_gone;
END
$function$;
ALTER FUNCTION purge_expired_data(p_days integer, p_limit integer) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION purge_expired_data(p_days integer, p_limit integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION purge_expired_data(p_days integer, p_limit integer) TO portal_app;
