-- An admin approves or refuses a request to teach: approving makes the account a teacher's (its
-- sessions everywhere learn of it through users_notify), and either way the decision is audited
-- here, in the same statement, and told to the requester by mail when they have a verified
-- address and the portal sends mail (p_subject not null; the wording in their language, made by
-- the caller). The decision now standing: a request decided already keeps its first decision
-- (a second click, another admin at the same time). NULL for an unknown request.
CREATE OR REPLACE FUNCTION public.teacher_request_decide(p_request uuid, p_approve boolean, p_subject text, p_text text, p_html text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
    request record;
    address text;
    verdict text := CASE WHEN p_approve THEN 'approved' ELSE 'refused' END;
BEGIN
    IF me IS NULL OR public.app_role() <> 'admin' THEN
        RAISE EXCEPTION 'only an admin decides who teaches' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF p_approve IS NULL THEN
        RAISE EXCEPTION 'a decision approves or refuses' USING ERRCODE = 'check_violation';
    END IF;
    SELECT t.id, t.user_id, t.school, t.decision, u.username, u.display_name, u.locale INTO request
    FROM public.teacher_requests t JOIN public.users u ON u.id = t.user_id
    WHERE t.id = p_request FOR UPDATE OF t;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF request.decision IS NOT NULL THEN
        RETURN request.decision;
    END IF;
    UPDATE public.teacher_requests SET decision = verdict, decided_at = public.app_now(), decided_by = me WHERE id = p_request;
    IF p_approve THEN
        UPDATE public.users SET role = 'teacher' WHERE id = request.user_id AND role = 'student';
    END IF;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT public.app_now(), me, u.display_name, 'teacher-request.' || verdict, request.username,
           pg_catalog.jsonb_build_object('school', request.school)
    FROM public.users u WHERE u.id = me;
    IF p_subject IS NOT NULL THEN
        SELECT e.email INTO address FROM public.user_emails e WHERE e.user_id = request.user_id LIMIT 1;
        IF address IS NOT NULL THEN
            PERFORM public.mail_queue('teacher-request', address, request.display_name, coalesce(request.locale, 'en'),
                                      p_subject, p_text, p_html, NULL, NULL);
        END IF;
    END IF;
    RETURN verdict;
END
$function$;
ALTER FUNCTION teacher_request_decide(p_request uuid, p_approve boolean, p_subject text, p_text text, p_html text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION teacher_request_decide(p_request uuid, p_approve boolean, p_subject text, p_text text, p_html text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION teacher_request_decide(p_request uuid, p_approve boolean, p_subject text, p_text text, p_html text) TO portal_app;
