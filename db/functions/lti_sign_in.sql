-- A launch (`POST /lti/launch`) decided whole: the state taken once and bound to the browser,
-- the id_token verified and its claims checked against the platform and the login, the
-- platform's user signed in (linked by issuer and sub; a teacher when the token's roles say so,
-- never an admin) with the course's class, and a session opened for `p_session`.
--
-- `p_binding` says what the app knows of the browser: 'cookie' (the login's cookie came back,
-- its hash `p_cookie`), 'top' (no cookie in a top-level window, where it would have come),
-- 'framed' (no cookie inside a frame, where a browser may drop it) or 'storage' (inside a frame,
-- the platform's storage held this state, as the portal's own page found). Returns 'ok' with
-- the user, the class and the verified claims, or why not: 'state_unknown', 'state_used',
-- 'state_expired', 'other_browser', 'needs_storage' and 'keys_pending' (nothing spent: ask the
-- platform's storage, or try again once the key set is fetched), 'keys_unreachable', 'malformed',
-- 'algorithm', 'bad_signature', 'expired', 'not_yet_valid', 'wrong_issuer', 'wrong_audience',
-- 'wrong_nonce', 'wrong_version', 'no_user', 'unknown_deployment', 'unknown_message',
-- 'deep_link_teachers', 'replayed', 'disabled'. `problem` adds the detail a page may show.
CREATE OR REPLACE FUNCTION public.lti_sign_in(p_state text, p_id_token text, p_binding text, p_cookie bytea, p_agent bytea, p_session text, p_csrf text, p_user_agent text)
 RETURNS TABLE(outcome text, user_id uuid, class_id uuid, platform_id bigint, claims jsonb, problem text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
#variable_conflict use_column
DECLARE
    lti constant text := 'https://purl.imsglobal.org/spec/lti/claim/';
    now_at timestamptz := public.app_now();
    state record;
    bound boolean;
    platform record;
    verified record;
    payload jsonb;
    deployment text;
    user_subject text;
    message_type text;
    is_teacher boolean;
    context_key text;
    context_name text;
    roster_url text;
    account record;
    course record;
    made_class uuid;
    join_code_text text;
BEGIN
    SELECT s.* INTO state FROM public.lti_states s WHERE s.state_hash = sha256(convert_to(p_state, 'UTF8')) FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'state_unknown', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    IF state.used_at IS NOT NULL THEN
        RETURN QUERY SELECT 'state_used', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    IF state.created_at < now_at - interval '10 minutes' THEN
        UPDATE public.lti_states s SET used_at = now_at WHERE s.state_hash = state.state_hash;
        RETURN QUERY SELECT 'state_expired', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    SELECT p.* INTO platform FROM public.lti_platforms p WHERE p.id = state.platform_id;
    -- The browser: its cookie when it came back; never a top-level window without it; in a
    -- frame, the platform's storage when the platform offered one, else the user agent and
    -- address (the last resort, for platforms without storage in browsers that drop the cookie).
    bound := CASE p_binding
        WHEN 'cookie' THEN state.cookie_hash IS NOT NULL AND state.cookie_hash = p_cookie
        WHEN 'storage' THEN state.storage_target IS NOT NULL
        WHEN 'framed' THEN state.storage_target IS NULL AND state.browser_hash = p_agent
        ELSE false END;
    IF NOT coalesce(bound, false) THEN
        IF p_binding = 'framed' AND state.storage_target IS NOT NULL THEN
            RETURN QUERY SELECT 'needs_storage', NULL::uuid, NULL::uuid, platform.id, jsonb_build_object('auth_url', platform.auth_url), state.storage_target;
            RETURN;
        END IF;
        UPDATE public.lti_states s SET used_at = now_at WHERE s.state_hash = state.state_hash;
        RETURN QUERY SELECT 'other_browser', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;

    SELECT v.* INTO verified FROM public.jwt_verified(p_id_token, platform.jwks_url) v;
    IF verified.outcome = 'keys_pending' THEN
        PERFORM public.key_set_wanted(platform.jwks_url);
        RETURN QUERY SELECT 'keys_pending', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, verified.problem;
        RETURN;
    END IF;
    UPDATE public.lti_states s SET used_at = now_at WHERE s.state_hash = state.state_hash;
    IF verified.outcome <> 'ok' THEN
        RETURN QUERY SELECT verified.outcome, NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, verified.problem;
        RETURN;
    END IF;
    payload := verified.claims;
    deployment := CASE WHEN jsonb_typeof(payload->(lti || 'deployment_id')) = 'string' THEN payload->>(lti || 'deployment_id') END;
    user_subject := CASE WHEN jsonb_typeof(payload->'sub') = 'string' THEN payload->>'sub' END;
    message_type := payload->>(lti || 'message_type');
    IF payload->>'iss' IS DISTINCT FROM platform.issuer THEN
        RETURN QUERY SELECT 'wrong_issuer', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(payload->>'iss', 200);
        RETURN;
    ELSIF NOT public.jwt_meant_for(payload, platform.client_id) THEN
        RETURN QUERY SELECT 'wrong_audience', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    ELSIF payload->>'nonce' IS DISTINCT FROM state.nonce THEN
        RETURN QUERY SELECT 'wrong_nonce', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    ELSIF payload->>(lti || 'version') IS DISTINCT FROM '1.3.0' THEN
        RETURN QUERY SELECT 'wrong_version', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(coalesce(payload->>(lti || 'version'), 'none'), 20);
        RETURN;
    ELSIF user_subject IS NULL OR length(user_subject) NOT BETWEEN 1 AND 255 THEN
        RETURN QUERY SELECT 'no_user', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    ELSIF deployment IS NULL OR NOT EXISTS (
        SELECT 1 FROM public.lti_deployments d WHERE d.platform_id = platform.id AND d.deployment_id = deployment) THEN
        RETURN QUERY SELECT 'unknown_deployment', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(coalesce(deployment, 'none'), 200);
        RETURN;
    ELSIF message_type IS NULL OR message_type NOT IN ('LtiResourceLinkRequest', 'LtiDeepLinkingRequest') THEN
        RETURN QUERY SELECT 'unknown_message', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, left(coalesce(message_type, 'none'), 60);
        RETURN;
    END IF;
    is_teacher := jsonb_typeof(payload->(lti || 'roles')) = 'array' AND EXISTS (
        SELECT 1 FROM jsonb_array_elements(payload->(lti || 'roles')) r
        WHERE jsonb_typeof(r) = 'string'
          AND reverse(split_part(reverse(r #>> '{}'), '#', 1)) IN ('Instructor', 'TeachingAssistant', 'ContentDeveloper', 'Administrator'));
    IF message_type = 'LtiDeepLinkingRequest' AND NOT is_teacher THEN
        RETURN QUERY SELECT 'deep_link_teachers', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    IF NOT public.token_first_use(p_id_token, payload) THEN
        RETURN QUERY SELECT 'replayed', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;
    UPDATE public.lti_states s SET signed_in_at = now_at WHERE s.state_hash = state.state_hash;
    IF jsonb_typeof(payload->(lti || 'context')) = 'object' AND jsonb_typeof(payload->(lti || 'context')->'id') = 'string'
       AND length(payload->(lti || 'context')->>'id') BETWEEN 1 AND 255 THEN
        context_key := payload->(lti || 'context')->>'id';
        context_name := coalesce(nullif(payload->(lti || 'context')->>'title', ''), payload->(lti || 'context')->>'label');
    END IF;
    roster_url := payload->'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice'->>'context_memberships_url';

    SELECT a.id, a.disabled INTO account
    FROM public.external_account('lti', platform.issuer, user_subject, public.jwt_display_name(payload), 'Learner', is_teacher, now_at) a;
    IF account.disabled THEN
        RETURN QUERY SELECT 'disabled', NULL::uuid, NULL::uuid, NULL::bigint, NULL::jsonb, NULL::text;
        RETURN;
    END IF;

    IF context_key IS NOT NULL THEN
        INSERT INTO public.lti_contexts (platform_id, context_id, title, memberships_url)
        VALUES (platform.id, context_key, coalesce(nullif(btrim(left(context_name, 120)), ''), 'Course'), roster_url)
        ON CONFLICT ON CONSTRAINT lti_contexts_pkey DO UPDATE SET memberships_url = coalesce(EXCLUDED.memberships_url, lti_contexts.memberships_url);
        SELECT c.class_id, c.title INTO course FROM public.lti_contexts c WHERE c.platform_id = platform.id AND c.context_id = context_key FOR UPDATE;
        made_class := course.class_id;
        IF made_class IS NULL AND is_teacher THEN
            LOOP
                join_code_text := (SELECT string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 1 + floor(random() * 32)::int, 1), '') FROM generate_series(1, 8));
                EXIT WHEN NOT EXISTS (SELECT 1 FROM public.classes c WHERE c.join_code = join_code_text);
            END LOOP;
            INSERT INTO public.classes (teacher_id, name, join_code, created_at) VALUES (account.id, course.title, join_code_text, now_at)
            RETURNING id INTO made_class;
            UPDATE public.lti_contexts c SET class_id = made_class WHERE c.platform_id = platform.id AND c.context_id = context_key;
            INSERT INTO public.class_members (class_id, user_id, joined_at)
            SELECT made_class, w.user_id, now_at FROM public.lti_context_learners w
            WHERE w.platform_id = platform.id AND w.context_id = context_key AND w.user_id <> account.id
            ON CONFLICT DO NOTHING;
            DELETE FROM public.lti_context_learners w WHERE w.platform_id = platform.id AND w.context_id = context_key;
        ELSIF made_class IS NULL THEN
            INSERT INTO public.lti_context_learners (platform_id, context_id, user_id) VALUES (platform.id, context_key, account.id) ON CONFLICT DO NOTHING;
        ELSIF NOT EXISTS (SELECT 1 FROM public.classes c WHERE c.id = made_class AND c.teacher_id = account.id) THEN
            -- A member again even after leaving: the course says they belong to it.
            INSERT INTO public.class_members AS m (class_id, user_id, joined_at) VALUES (made_class, account.id, now_at)
            ON CONFLICT (class_id, user_id) DO UPDATE SET left_at = NULL, joined_at = EXCLUDED.joined_at WHERE m.left_at IS NOT NULL;
        END IF;
    END IF;

    PERFORM public.auth_open_session(account.id, p_session, p_csrf, p_user_agent, now_at);
    RETURN QUERY SELECT 'ok', account.id, made_class, platform.id, payload, NULL::text;
END
$function$;
ALTER FUNCTION lti_sign_in(p_state text, p_id_token text, p_binding text, p_cookie bytea, p_agent bytea, p_session text, p_csrf text, p_user_agent text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION lti_sign_in(p_state text, p_id_token text, p_binding text, p_cookie bytea, p_agent bytea, p_session text, p_csrf text, p_user_agent text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_sign_in(p_state text, p_id_token text, p_binding text, p_cookie bytea, p_agent bytea, p_session text, p_csrf text, p_user_agent text) TO portal_app;
