-- A teacher makes accounts for their class: for each person (a JSON array of {"name", "username",
-- "code"}: the name shown, the username wanted — made unique here with a number — and the hex of
-- the start code's SHA-256), a student account with no password and no e-mail, a member of the
-- class, with a start code that lasts 14 days (the first sign-in chooses the password with it,
-- as a reset does). The caller must teach the class (or be an admin); at most 100 at once and
-- 300 a day per teacher; the whole batch or nothing. Audited with the class and the count.
-- Returns each account made, in the order given.
CREATE OR REPLACE FUNCTION public.teacher_make_accounts(p_class uuid, p_people jsonb)
 RETURNS TABLE(user_id uuid, username text, display_name text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    me uuid := public.app_user_id();
    class_name text;
    person jsonb;
    wanted text;
    candidate text;
    name_given text;
    made uuid;
    suffix integer;
    total integer := jsonb_array_length(p_people);
BEGIN
    SELECT c.name INTO class_name FROM public.classes c
    WHERE c.id = p_class AND (c.teacher_id = me OR public.app_role() = 'admin');
    IF me IS NULL OR class_name IS NULL THEN
        RAISE EXCEPTION 'only the class''s teacher makes accounts for it' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF total < 1 OR total > 100 THEN
        RAISE EXCEPTION 'between 1 and 100 accounts at once' USING ERRCODE = 'check_violation';
    END IF;
    IF (SELECT count(*) FROM public.users u WHERE u.made_by = me AND u.created_at > now_at - interval '1 day') + total > 300 THEN
        RAISE EXCEPTION 'at most 300 accounts a day' USING ERRCODE = 'program_limit_exceeded';
    END IF;
    FOR person IN SELECT value FROM jsonb_array_elements(p_people) LOOP
        name_given := btrim(person->>'name');
        wanted := lower(person->>'username');
        IF wanted IS NULL OR wanted !~ '^[a-z0-9][a-z0-9._-]{1,33}$' OR length(coalesce(person->>'code', '')) <> 64 THEN
            RAISE EXCEPTION 'each person needs a name, a username of 2 to 34 letters, digits, dots or dashes, and a code''s hash'
                USING ERRCODE = 'check_violation';
        END IF;
        made := NULL;
        suffix := 1;
        WHILE made IS NULL LOOP
            candidate := wanted || CASE WHEN suffix = 1 AND length(wanted) >= 3 THEN '' ELSE suffix::text END;
            INSERT INTO public.users AS u (username, display_name, role, made_by, created_at)
            VALUES (candidate, name_given, 'student', me, now_at)
            ON CONFLICT (lower(username)) DO NOTHING
            RETURNING u.id INTO made;
            suffix := suffix + 1;
        END LOOP;
        INSERT INTO public.class_members (class_id, user_id, joined_at) VALUES (p_class, made, now_at);
        INSERT INTO public.password_resets (user_id, code_hash, issued_by, issued_at, expires_at)
        VALUES (made, decode(person->>'code', 'hex'), me, now_at, now_at + interval '14 days');
        RETURN QUERY SELECT made, candidate, name_given;
    END LOOP;
    INSERT INTO public.audit_log (at, actor_id, actor_name, action, target, details)
    SELECT now_at, me, u.display_name, 'class.accounts-made', class_name, pg_catalog.jsonb_build_object('count', total)
    FROM public.users u WHERE u.id = me;
END
$function$;
ALTER FUNCTION teacher_make_accounts(p_class uuid, p_people jsonb) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION teacher_make_accounts(p_class uuid, p_people jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION teacher_make_accounts(p_class uuid, p_people jsonb) TO portal_app;
