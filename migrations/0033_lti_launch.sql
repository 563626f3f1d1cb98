-- LTI launches: a platform's user signed in here, linked by (issuer, sub); the course's class;
-- deep-linking requests waiting for the instructor's choice; graded sessions and the scores on
-- their way back to the platform.

-- Accounts made by a platform (or, later, an identity provider) have no password: the password
-- sign-in finds nothing to check for them (auth_hash_parts of NULL gives the decoy).
ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;

-- Who a user is elsewhere. Never matched by e-mail: only the issuer's own subject links.
CREATE TABLE external_identities (
    kind text NOT NULL CHECK (kind IN ('lti', 'sso')),
    issuer text NOT NULL CHECK (length(issuer) BETWEEN 1 AND 300),
    subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, issuer, subject)
);
CREATE INDEX external_identities_by_user ON external_identities (user_id);
ALTER TABLE external_identities ENABLE ROW LEVEL SECURITY;
ALTER TABLE external_identities FORCE ROW LEVEL SECURITY;
CREATE POLICY external_identities_self ON external_identities FOR SELECT TO portal_app USING (user_id = app_user_id());
CREATE POLICY external_identities_auth ON external_identities TO portal_auth USING (true) WITH CHECK (true);
GRANT SELECT ON external_identities TO portal_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON external_identities TO portal_auth;

-- A login's state is bound to the browser that began it (the hash of its user agent and
-- address): a state carried to another browser is refused. (A cookie cannot do this inside an
-- LMS's iframe, where a third-party cookie may never come back.) States kept before this had no
-- binding; they live ten minutes anyway.
DELETE FROM lti_states;
ALTER TABLE lti_states ADD COLUMN browser_hash bytea NOT NULL CHECK (octet_length(browser_hash) = 32);
ALTER TABLE lti_states ADD COLUMN signed_in_at timestamptz;
ALTER TABLE lti_states FORCE ROW LEVEL SECURITY;
CREATE POLICY lti_states_auth ON lti_states TO portal_auth USING (true) WITH CHECK (true);
GRANT SELECT, UPDATE, DELETE ON lti_states TO portal_auth;
GRANT SELECT ON lti_platforms, lti_deployments TO portal_auth;

-- Takes a state once: 'ok' with its platform, nonce and target; else why not ('unknown',
-- 'used', 'expired' after ten minutes, 'other_browser'). A state is spent by any attempt.
CREATE FUNCTION lti_take_state(p_state text, p_browser bytea)
    RETURNS TABLE (outcome text, platform_id bigint, nonce text, target_link_uri text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    taken record;
BEGIN
    DELETE FROM public.lti_states WHERE state_hash IN (
        SELECT s.state_hash FROM public.lti_states s WHERE s.created_at < now_at - interval '1 day' LIMIT 20);
    SELECT s.* INTO taken FROM public.lti_states s WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'unknown', NULL::bigint, NULL::text, NULL::text;
        RETURN;
    END IF;
    IF taken.used_at IS NOT NULL THEN
        RETURN QUERY SELECT 'used', NULL::bigint, NULL::text, NULL::text;
        RETURN;
    END IF;
    UPDATE public.lti_states SET used_at = now_at WHERE state_hash = taken.state_hash;
    IF taken.created_at < now_at - interval '10 minutes' THEN
        RETURN QUERY SELECT 'expired', NULL::bigint, NULL::text, NULL::text;
    ELSIF taken.browser_hash <> p_browser THEN
        RETURN QUERY SELECT 'other_browser', NULL::bigint, NULL::text, NULL::text;
    ELSE
        RETURN QUERY SELECT 'ok', taken.platform_id, taken.nonce, taken.target_link_uri;
    END IF;
END
$$;

-- A course (an LTI context) and the class it became: made by the first instructor to launch
-- from it, who teaches it. Learners who launched before that wait in lti_context_learners and
-- join when the class is made.
CREATE TABLE lti_contexts (
    platform_id bigint NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    context_id text NOT NULL CHECK (length(context_id) BETWEEN 1 AND 255),
    class_id uuid REFERENCES classes(id) ON DELETE SET NULL,
    title text NOT NULL,
    -- Names and Role Provisioning Services: where the course's roster is, when offered.
    memberships_url text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (platform_id, context_id)
);
CREATE TABLE lti_context_learners (
    platform_id bigint NOT NULL,
    context_id text NOT NULL,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (platform_id, context_id, user_id),
    FOREIGN KEY (platform_id, context_id) REFERENCES lti_contexts(platform_id, context_id) ON DELETE CASCADE
);
ALTER TABLE lti_contexts ENABLE ROW LEVEL SECURITY;
ALTER TABLE lti_contexts FORCE ROW LEVEL SECURITY;
ALTER TABLE lti_context_learners ENABLE ROW LEVEL SECURITY;
ALTER TABLE lti_context_learners FORCE ROW LEVEL SECURITY;
-- The class's teacher sees the course behind it (the roster's address); admins see all.
CREATE POLICY lti_contexts_teacher ON lti_contexts FOR SELECT TO portal_app
    USING (app_role() = 'admin' OR class_id = ANY ((SELECT app_taught_classes())::uuid[]));
CREATE POLICY lti_contexts_auth ON lti_contexts TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY lti_context_learners_auth ON lti_context_learners TO portal_auth USING (true) WITH CHECK (true);
GRANT SELECT ON lti_contexts TO portal_app;
GRANT SELECT, INSERT, UPDATE ON lti_contexts, lti_context_learners TO portal_auth;
GRANT DELETE ON lti_context_learners TO portal_auth;
CREATE POLICY classes_auth_lti ON classes FOR INSERT TO portal_auth WITH CHECK (true);
GRANT INSERT ON classes TO portal_auth;

-- The account linked to (kind, issuer, subject), made now if there is none (no password; a
-- teacher when the platform or provider says so, never an admin; `p_fallback` names someone
-- who gave no name), and a student raised to teacher when it says so later. Only for the
-- sign-in functions below, which have checked who the user is.
CREATE FUNCTION external_account(p_kind text, p_issuer text, p_subject text, p_name text, p_fallback text, p_teacher boolean, p_at timestamptz,
                                 OUT id uuid, OUT disabled boolean)
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
#variable_conflict use_column
DECLARE
    account record;
BEGIN
    SELECT u.id, u.role, u.disabled_at INTO account FROM public.external_identities i JOIN public.users u ON u.id = i.user_id
    WHERE i.kind = p_kind AND i.issuer = p_issuer AND i.subject = p_subject;
    IF NOT FOUND THEN
        INSERT INTO public.users (username, display_name, password_hash, role)
        VALUES (p_kind || '-' || replace(gen_random_uuid()::text, '-', ''), coalesce(nullif(btrim(left(p_name, 80)), ''), p_fallback), NULL,
                CASE WHEN p_teacher THEN 'teacher' ELSE 'student' END)
        RETURNING users.id, users.role, users.disabled_at INTO account;
        INSERT INTO public.external_identities (kind, issuer, subject, user_id) VALUES (p_kind, p_issuer, p_subject, account.id);
    ELSIF account.disabled_at IS NULL THEN
        UPDATE public.external_identities i SET last_used_at = p_at WHERE i.kind = p_kind AND i.issuer = p_issuer AND i.subject = p_subject;
        IF p_teacher AND account.role = 'student' THEN
            UPDATE public.users u SET role = 'teacher' WHERE u.id = account.id;
        END IF;
    END IF;
    id := account.id;
    disabled := account.disabled_at IS NOT NULL;
END
$$;

-- Signs a platform's user in after the app has checked the id_token (signature, issuer,
-- audience, expiry, nonce): only within five minutes of taking that login's state, once, for
-- its platform. Finds the user by (issuer, sub) or makes the account (a teacher for an
-- instructor's roles, never an admin; a student raised to teacher when launched as one), brings
-- the course's class along, and opens a session for `p_token`.
-- Returns 'ok' with the user and class, or why not: 'no_state', 'unknown_deployment', 'disabled'.
CREATE FUNCTION lti_sign_in(
    p_state text, p_deployment text, p_subject text, p_name text, p_teacher boolean, p_context text, p_context_title text,
    p_memberships_url text, p_token text, p_csrf text, p_user_agent text)
    RETURNS TABLE (outcome text, user_id uuid, class_id uuid)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    platform bigint;
    platform_issuer text;
    account record;
    course record;
    made_class uuid;
    code text;
BEGIN
    UPDATE public.lti_states s SET signed_in_at = now_at
    WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) AND s.used_at > now_at - interval '5 minutes' AND s.signed_in_at IS NULL
    RETURNING s.platform_id INTO platform;
    IF platform IS NULL THEN
        RETURN QUERY SELECT 'no_state', NULL::uuid, NULL::uuid;
        RETURN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.lti_deployments d WHERE d.platform_id = platform AND d.deployment_id = p_deployment) THEN
        RETURN QUERY SELECT 'unknown_deployment', NULL::uuid, NULL::uuid;
        RETURN;
    END IF;
    SELECT p.issuer INTO platform_issuer FROM public.lti_platforms p WHERE p.id = platform;

    SELECT a.id, a.disabled INTO account FROM public.external_account('lti', platform_issuer, p_subject, p_name, 'Learner', p_teacher, now_at) a;
    IF account.disabled THEN
        RETURN QUERY SELECT 'disabled', NULL::uuid, NULL::uuid;
        RETURN;
    END IF;

    IF p_context IS NOT NULL THEN
        INSERT INTO public.lti_contexts (platform_id, context_id, title, memberships_url)
        VALUES (platform, p_context, coalesce(nullif(btrim(left(p_context_title, 120)), ''), 'Course'), p_memberships_url)
        ON CONFLICT ON CONSTRAINT lti_contexts_pkey DO UPDATE SET memberships_url = coalesce(EXCLUDED.memberships_url, lti_contexts.memberships_url);
        SELECT c.class_id, c.title INTO course FROM public.lti_contexts c WHERE c.platform_id = platform AND c.context_id = p_context FOR UPDATE;
        made_class := course.class_id;
        IF made_class IS NULL AND p_teacher THEN
            LOOP
                code := (SELECT string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 1 + floor(random() * 32)::int, 1), '') FROM generate_series(1, 8));
                EXIT WHEN NOT EXISTS (SELECT 1 FROM public.classes c WHERE c.join_code = code);
            END LOOP;
            INSERT INTO public.classes (teacher_id, name, join_code, created_at) VALUES (account.id, course.title, code, now_at)
            RETURNING id INTO made_class;
            UPDATE public.lti_contexts c SET class_id = made_class WHERE c.platform_id = platform AND c.context_id = p_context;
            INSERT INTO public.class_members (class_id, user_id, joined_at)
            SELECT made_class, w.user_id, now_at FROM public.lti_context_learners w
            WHERE w.platform_id = platform AND w.context_id = p_context AND w.user_id <> account.id
            ON CONFLICT DO NOTHING;
            DELETE FROM public.lti_context_learners w WHERE w.platform_id = platform AND w.context_id = p_context;
        ELSIF made_class IS NULL THEN
            INSERT INTO public.lti_context_learners (platform_id, context_id, user_id) VALUES (platform, p_context, account.id) ON CONFLICT DO NOTHING;
        ELSIF NOT EXISTS (SELECT 1 FROM public.classes c WHERE c.id = made_class AND c.teacher_id = account.id) THEN
            -- A member again even after leaving: the course says they belong to it.
            INSERT INTO public.class_members AS m (class_id, user_id, joined_at) VALUES (made_class, account.id, now_at)
            ON CONFLICT (class_id, user_id) DO UPDATE SET left_at = NULL, joined_at = EXCLUDED.joined_at WHERE m.left_at IS NOT NULL;
        END IF;
    END IF;

    PERFORM public.auth_open_session(account.id, p_token, p_csrf, p_user_agent, now_at);
    RETURN QUERY SELECT 'ok', account.id, made_class;
END
$$;

-- Deep linking: the platform's request, kept until the instructor who launched it chooses what
-- to link (an hour at most), used once. Platforms show this choice in a frame of their own
-- page, where the portal's cookie may never arrive: the request's random token, in the page's
-- address and kept here only as its hash, is what names it and admits its instructor.
CREATE TABLE lti_deep_links (
    token_hash bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    platform_id bigint NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    deployment_id text NOT NULL,
    return_url text NOT NULL CHECK (return_url ~ '^https?://[^\s]+$' AND length(return_url) <= 2000),
    data text CHECK (length(data) <= 4000),
    accepts_line_item boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL,
    used_at timestamptz
);
ALTER TABLE lti_deep_links ENABLE ROW LEVEL SECURITY;
ALTER TABLE lti_deep_links FORCE ROW LEVEL SECURITY;
CREATE POLICY lti_deep_links_add ON lti_deep_links FOR INSERT TO portal_app
    WITH CHECK (user_id = app_user_id() AND app_role() IN ('teacher', 'admin') AND used_at IS NULL);
CREATE POLICY lti_deep_links_auth ON lti_deep_links TO portal_auth USING (true) WITH CHECK (true);
GRANT INSERT ON lti_deep_links TO portal_app;
GRANT SELECT, UPDATE ON lti_deep_links TO portal_auth;

-- The request a token names, while unused and under an hour old; `p_use` marks it used (the
-- answer goes back to the platform once).
CREATE FUNCTION lti_deep_link(p_token text, p_use boolean)
    RETURNS TABLE (platform_id bigint, deployment_id text, return_url text, data text, accepts_line_item boolean)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
#variable_conflict use_column
BEGIN
    IF p_use THEN
        RETURN QUERY UPDATE public.lti_deep_links l SET used_at = public.app_now()
            WHERE l.token_hash = sha256(convert_to(p_token, 'UTF8')) AND l.used_at IS NULL AND l.created_at > public.app_now() - interval '1 hour'
            RETURNING l.platform_id, l.deployment_id, l.return_url, l.data, l.accepts_line_item;
    ELSE
        RETURN QUERY SELECT l.platform_id, l.deployment_id, l.return_url, l.data, l.accepts_line_item FROM public.lti_deep_links l
            WHERE l.token_hash = sha256(convert_to(p_token, 'UTF8')) AND l.used_at IS NULL AND l.created_at > public.app_now() - interval '1 hour';
    END IF;
END
$$;

-- A study session a graded launch started: its score goes to the line item for the platform's
-- user. Added by the student who launched, for their own unfinished session.
CREATE TABLE lti_graded_sessions (
    session_id uuid PRIMARY KEY REFERENCES study_sessions(id) ON DELETE CASCADE,
    platform_id bigint NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    resource_link_id text NOT NULL CHECK (length(resource_link_id) BETWEEN 1 AND 255),
    lineitem_url text NOT NULL CHECK (lineitem_url ~ '^https?://[^\s]+$' AND length(lineitem_url) <= 2000),
    subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lti_graded_sessions_by_link ON lti_graded_sessions (platform_id, resource_link_id, subject);
ALTER TABLE lti_graded_sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE lti_graded_sessions FORCE ROW LEVEL SECURITY;
CREATE POLICY lti_graded_sessions_own ON lti_graded_sessions TO portal_app
    USING (EXISTS (SELECT 1 FROM study_sessions s WHERE s.id = session_id AND s.user_id = app_user_id()))
    WITH CHECK (EXISTS (SELECT 1 FROM study_sessions s WHERE s.id = session_id AND s.user_id = app_user_id() AND s.finished_at IS NULL)
                AND EXISTS (SELECT 1 FROM external_identities i JOIN lti_platforms p ON p.issuer = i.issuer
                            WHERE p.id = platform_id AND i.kind = 'lti' AND i.subject = lti_graded_sessions.subject AND i.user_id = app_user_id()));
CREATE POLICY lti_graded_sessions_auth ON lti_graded_sessions FOR SELECT TO portal_auth USING (true);
GRANT SELECT, INSERT ON lti_graded_sessions TO portal_app;
GRANT SELECT ON lti_graded_sessions TO portal_auth;

-- The scores on their way: one row per finished graded session (its primary key: a score is
-- never queued twice for one attempt), taken by a sender for a short lease, marked sent, or put
-- back with a growing wait after a failure.
CREATE TABLE lti_score_outbox (
    session_id uuid PRIMARY KEY REFERENCES study_sessions(id) ON DELETE CASCADE,
    platform_id bigint NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    lineitem_url text NOT NULL,
    subject text NOT NULL,
    score_given numeric(5, 2) NOT NULL,
    score_maximum numeric(5, 2) NOT NULL,
    finished_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    sent_at timestamptz,
    last_error text
);
CREATE INDEX lti_score_outbox_due ON lti_score_outbox (next_attempt_at) WHERE sent_at IS NULL;
ALTER TABLE lti_score_outbox ENABLE ROW LEVEL SECURITY;
ALTER TABLE lti_score_outbox FORCE ROW LEVEL SECURITY;
CREATE POLICY lti_score_outbox_admin ON lti_score_outbox FOR SELECT TO portal_app USING (app_role() = 'admin');
CREATE POLICY lti_score_outbox_auth ON lti_score_outbox TO portal_auth USING (true) WITH CHECK (true);
GRANT SELECT ON lti_score_outbox TO portal_app;
GRANT SELECT, INSERT, UPDATE ON lti_score_outbox TO portal_auth;

-- Finishing a graded session queues its score (the percentage, out of 100).
CREATE FUNCTION lti_queue_score() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    INSERT INTO public.lti_score_outbox (session_id, platform_id, lineitem_url, subject, score_given, score_maximum, finished_at, next_attempt_at)
    SELECT g.session_id, g.platform_id, g.lineitem_url, g.subject, NEW.score_percent, 100, NEW.finished_at, public.app_now()
    FROM public.lti_graded_sessions g WHERE g.session_id = NEW.id
    ON CONFLICT (session_id) DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER study_sessions_lti_score AFTER UPDATE OF finished_at ON study_sessions
    FOR EACH ROW WHEN (OLD.finished_at IS NULL AND NEW.finished_at IS NOT NULL) EXECUTE FUNCTION lti_queue_score();

-- The sender's side: due scores taken for two minutes (another instance leaves them alone),
-- then marked sent or failed (the next try after 30 s, 1, 2, 4 … minutes, at most an hour).
CREATE FUNCTION lti_take_due_scores(p_limit integer)
    RETURNS TABLE (session_id uuid, platform_id bigint, client_id text, token_url text, lineitem_url text, subject text,
                   score_given numeric, score_maximum numeric, finished_at timestamptz, attempts integer)
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    WITH due AS (
        SELECT o.session_id FROM public.lti_score_outbox o
        WHERE o.sent_at IS NULL AND o.next_attempt_at <= public.app_now()
        ORDER BY o.next_attempt_at LIMIT least(greatest(p_limit, 1), 100) FOR UPDATE SKIP LOCKED
    ), taken AS (
        UPDATE public.lti_score_outbox o SET next_attempt_at = public.app_now() + interval '2 minutes'
        FROM due WHERE o.session_id = due.session_id RETURNING o.*
    )
    SELECT t.session_id, t.platform_id, p.client_id, p.token_url, t.lineitem_url, t.subject, t.score_given, t.score_maximum, t.finished_at, t.attempts
    FROM taken t JOIN public.lti_platforms p ON p.id = t.platform_id
$$;
CREATE FUNCTION lti_score_sent(p_session uuid) RETURNS void
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    UPDATE public.lti_score_outbox SET sent_at = public.app_now(), last_error = NULL WHERE session_id = p_session AND sent_at IS NULL
$$;
CREATE FUNCTION lti_score_failed(p_session uuid, p_error text) RETURNS void
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    UPDATE public.lti_score_outbox
    SET attempts = attempts + 1, last_error = left(p_error, 500),
        next_attempt_at = public.app_now() + least(interval '1 hour', interval '30 seconds' * power(2, least(attempts, 10)))
    WHERE session_id = p_session AND sent_at IS NULL
$$;

-- (A new owner needs the schema's CREATE right for the moment of the change.)
GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION external_account(text, text, text, text, text, boolean, timestamptz) OWNER TO portal_auth;
ALTER FUNCTION lti_take_state(text, bytea) OWNER TO portal_auth;
ALTER FUNCTION lti_sign_in(text, text, text, text, boolean, text, text, text, text, text, text) OWNER TO portal_auth;
ALTER FUNCTION lti_deep_link(text, boolean) OWNER TO portal_auth;
ALTER FUNCTION lti_queue_score() OWNER TO portal_auth;
ALTER FUNCTION lti_take_due_scores(integer) OWNER TO portal_auth;
ALTER FUNCTION lti_score_sent(uuid) OWNER TO portal_auth;
ALTER FUNCTION lti_score_failed(uuid, text) OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION external_account(text, text, text, text, text, boolean, timestamptz), lti_take_state(text, bytea), lti_sign_in(text, text, text, text, boolean, text, text, text, text, text, text),
    lti_deep_link(text, boolean), lti_queue_score(), lti_take_due_scores(integer), lti_score_sent(uuid), lti_score_failed(uuid, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_take_state(text, bytea), lti_sign_in(text, text, text, text, boolean, text, text, text, text, text, text),
    lti_deep_link(text, boolean), lti_take_due_scores(integer), lti_score_sent(uuid), lti_score_failed(uuid, text) TO portal_app;

-- Names and Role Provisioning Services: of a course roster's users (their `sub`s), those who
-- have launched and are members of the class now; only for the class's teacher.
CREATE FUNCTION lti_roster_joined(p_class uuid, p_subjects text[]) RETURNS text[]
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT coalesce(array_agg(i.subject), '{}')
    FROM public.lti_contexts c
    JOIN public.lti_platforms p ON p.id = c.platform_id
    JOIN public.external_identities i ON i.kind = 'lti' AND i.issuer = p.issuer AND i.subject = ANY (p_subjects)
    JOIN public.class_members m ON m.class_id = c.class_id AND m.user_id = i.user_id AND m.left_at IS NULL
    WHERE c.class_id = p_class AND EXISTS (SELECT 1 FROM public.classes k WHERE k.id = p_class AND k.teacher_id = public.app_user_id())
$$;
GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION lti_roster_joined(uuid, text[]) OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION lti_roster_joined(uuid, text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_roster_joined(uuid, text[]) TO portal_app;
