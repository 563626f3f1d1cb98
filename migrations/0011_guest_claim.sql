-- A guest who makes an account (or signs in) keeps what they practised: their sessions and
-- answers are taken into the account, and their answers get the ratings a signed-in student's
-- would have (right is Good, wrong is Again: RatingPolicy with no timing history), so review
-- cards can be rebuilt from them. portal_app still cannot change a session's owner or an
-- answer; one narrow function owned by portal_auth does, for the caller's own guest key only.

-- History stays frozen, except for this one change of owner.
CREATE OR REPLACE FUNCTION study_sessions_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.finished_at IS NOT NULL THEN
        IF OLD.user_id IS NULL AND NEW.user_id IS NOT NULL AND NEW.guest_key IS NULL
           AND to_jsonb(NEW) - 'user_id' - 'guest_key' = to_jsonb(OLD) - 'user_id' - 'guest_key' THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'study session % has ended', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;

-- Takes every session of the guest key into the signed-in caller's account (app.user_id);
-- returns how many. A key holds only what the cookie's holder practised, so claiming needs
-- the cookie itself: the caller hashes it, nobody can name another guest's key.
CREATE FUNCTION claim_guest_sessions(p_guest_key bytea) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    owner uuid := app_user_id();
    claimed integer;
BEGIN
    IF owner IS NULL OR p_guest_key IS NULL OR length(p_guest_key) <> 32 THEN
        RETURN 0;
    END IF;
    UPDATE answers a SET user_id = owner, rating = CASE WHEN a.correct THEN 3 ELSE 1 END
    FROM study_sessions s
    WHERE s.id = a.session_id AND s.guest_key = p_guest_key AND s.user_id IS NULL AND a.user_id IS NULL;
    UPDATE study_sessions SET user_id = owner, guest_key = NULL WHERE guest_key = p_guest_key AND user_id IS NULL;
    GET DIAGNOSTICS claimed = ROW_COUNT;
    RETURN claimed;
END
$$;

-- (An updated row must stay visible under the SELECT policy, hence the caller's own rows there.)
CREATE POLICY study_sessions_claim_read ON study_sessions FOR SELECT TO portal_auth
    USING (user_id IS NULL OR user_id = app_user_id());
CREATE POLICY study_sessions_claim ON study_sessions FOR UPDATE TO portal_auth
    USING (user_id IS NULL) WITH CHECK (user_id = app_user_id() AND guest_key IS NULL);
CREATE POLICY answers_claim_read ON answers FOR SELECT TO portal_auth USING (user_id IS NULL OR user_id = app_user_id());
CREATE POLICY answers_claim ON answers FOR UPDATE TO portal_auth USING (user_id IS NULL) WITH CHECK (user_id = app_user_id());
GRANT SELECT, UPDATE (user_id, guest_key) ON study_sessions TO portal_auth;
GRANT SELECT, UPDATE (user_id, rating) ON answers TO portal_auth;
GRANT EXECUTE ON FUNCTION app_user_id() TO portal_auth;

-- Handing a function to a role needs that role to have CREATE on the schema, for a moment.
GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION claim_guest_sessions(bytea) OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION claim_guest_sessions(bytea) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION claim_guest_sessions(bytea) TO portal_app;
