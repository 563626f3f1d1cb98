-- Runs after study_sessions_admit (triggers fire in name order). A row for someone other than
-- the caller is left to the table's policy, which refuses it: this says nothing about them.
CREATE OR REPLACE FUNCTION public.study_sessions_attempts()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    limit_attempts integer;
    extra integer;
    used integer;
BEGIN
    IF NEW.share_link_id IS NULL THEN
        RETURN NEW;
    END IF;
    SELECT l.attempts INTO limit_attempts FROM public.share_links l WHERE l.id = NEW.share_link_id;
    IF limit_attempts IS NULL THEN
        RETURN NEW;
    END IF;
    IF NEW.user_id IS NULL THEN
        RAISE EXCEPTION 'this assignment counts attempts: sign in to start it' USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.user_id IS DISTINCT FROM public.app_user_id() THEN
        RETURN NEW;
    END IF;
    -- One start at a time per student and link, so two at once cannot both take the last attempt.
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(NEW.share_link_id::text || NEW.user_id::text, 0));
    SELECT coalesce((SELECT a.extra_attempts FROM public.accommodations a WHERE a.student_id = NEW.user_id), 0) INTO extra;
    SELECT count(*) INTO used FROM public.study_sessions s WHERE s.share_link_id = NEW.share_link_id AND s.user_id = NEW.user_id;
    IF used >= limit_attempts + extra THEN
        RAISE EXCEPTION 'no attempts left at this assignment' USING ERRCODE = 'check_violation', DETAIL = 'attempts';
    END IF;
    RETURN NEW;
END
$function$;
ALTER FUNCTION study_sessions_attempts() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION study_sessions_attempts() FROM PUBLIC;
