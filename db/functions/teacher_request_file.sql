-- A signed-in student asks to teach, naming their school and adding a note: the open request
-- is made, or the one already open gets the new school and note (a form sent twice files one
-- request). 'filed' or 'updated'; 'teaches' for an account that teaches already (nothing is
-- filed). A school that is empty or too long is the table's check_violation.
CREATE OR REPLACE FUNCTION public.teacher_request_file(p_school text, p_note text)
 RETURNS text
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    me uuid := public.app_user_id();
    v_school text := btrim(coalesce(p_school, ''));
    v_note text := btrim(coalesce(p_note, ''));
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'only a signed-in account asks to teach' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF public.app_role() <> 'student' THEN
        RETURN 'teaches';
    END IF;
    -- The open request, locked: two sends at once update it one after the other.
    UPDATE public.teacher_requests t SET school = v_school, note = v_note
    WHERE t.user_id = me AND t.decision IS NULL;
    IF FOUND THEN
        RETURN 'updated';
    END IF;
    BEGIN
        INSERT INTO public.teacher_requests (user_id, school, note, created_at)
        VALUES (me, v_school, v_note, public.app_now());
    EXCEPTION WHEN unique_violation THEN
        -- Filed by the same account's other send a moment ago.
        UPDATE public.teacher_requests t SET school = v_school, note = v_note
        WHERE t.user_id = me AND t.decision IS NULL;
        RETURN 'updated';
    END;
    RETURN 'filed';
END
$function$;
ALTER FUNCTION teacher_request_file(p_school text, p_note text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION teacher_request_file(p_school text, p_note text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION teacher_request_file(p_school text, p_note text) TO portal_app;
