-- The sign-in finished (`/auth/{provider}/finish`) in the browser that began it: the id_token
-- the agent received is verified against the provider's key set and checked (issuer,
-- audience, times, the login's nonce, the admitted domains), then the provider's user is
-- signed in (linked by issuer and sub; a teacher when the provider's claim says so) or, for a
-- link, linked to the signed-in user who began it. 'ok' (signed in) or 'linked' with the user
-- and where to return; 'pending' (the agent has not answered yet; also while the key set is
-- fetched), else 'no_exchange', 'timed_out', 'exchange_failed' (with the reason), the token's
-- refusals as for lti_sign_in, 'wrong_issuer', 'wrong_audience', 'wrong_nonce', 'no_user',
-- 'domain_not_allowed' (with the domain), 'replayed', 'link_signed_out', 'link_taken', 'disabled'.
CREATE OR REPLACE FUNCTION public.sso_finish(p_browser bytea, p_provider bigint, p_session text, p_csrf text, p_user_agent text)
 RETURNS TABLE(outcome text, user_id uuid, return_to text, problem text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
#variable_conflict use_column
DECLARE
    now_at timestamptz := public.app_now();
    flow record;
    provider record;
    verified record;
    payload jsonb;
    user_subject text;
    seen text[] := '{}';
    email text;
    is_teacher boolean := false;
    account record;
    owner uuid;
BEGIN
    SELECT s.state_hash, s.nonce, s.link_user, s.return_to, x.requested_at, x.id_token, x.problem AS failure, x.answered_at INTO flow
    FROM public.sso_states s JOIN public.sso_exchanges x ON x.state_hash = s.state_hash
    WHERE s.browser_hash = p_browser AND s.provider_id = p_provider AND x.finished_at IS NULL AND s.used_at > now_at - interval '10 minutes'
    ORDER BY x.requested_at DESC LIMIT 1
    FOR UPDATE OF x;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'no_exchange', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    IF flow.answered_at IS NULL THEN
        IF flow.requested_at < now_at - interval '1 minute' THEN
            UPDATE public.sso_exchanges x SET finished_at = now_at WHERE x.state_hash = flow.state_hash;
            RETURN QUERY SELECT 'timed_out', NULL::uuid, NULL::text, NULL::text;
        ELSE
            RETURN QUERY SELECT 'pending', NULL::uuid, NULL::text, NULL::text;
        END IF;
        RETURN;
    END IF;
    IF flow.id_token IS NULL THEN
        UPDATE public.sso_exchanges x SET finished_at = now_at WHERE x.state_hash = flow.state_hash;
        RETURN QUERY SELECT 'exchange_failed', NULL::uuid, NULL::text, flow.failure;
        RETURN;
    END IF;
    SELECT p.* INTO provider FROM public.sso_providers p WHERE p.id = p_provider;
    SELECT v.* INTO verified FROM public.jwt_verified(flow.id_token, provider.jwks_uri) v;
    IF verified.outcome = 'keys_pending' THEN
        PERFORM public.key_set_wanted(provider.jwks_uri);
        RETURN QUERY SELECT 'pending', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    UPDATE public.sso_exchanges x SET finished_at = now_at WHERE x.state_hash = flow.state_hash;
    IF verified.outcome <> 'ok' THEN
        RETURN QUERY SELECT verified.outcome, NULL::uuid, NULL::text, verified.problem;
        RETURN;
    END IF;
    payload := verified.claims;
    user_subject := CASE WHEN jsonb_typeof(payload->'sub') = 'string' THEN payload->>'sub' END;
    IF payload->>'iss' IS DISTINCT FROM provider.issuer THEN
        RETURN QUERY SELECT 'wrong_issuer', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    ELSIF NOT public.jwt_meant_for(payload, provider.client_id) THEN
        RETURN QUERY SELECT 'wrong_audience', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    ELSIF payload->>'nonce' IS DISTINCT FROM flow.nonce THEN
        RETURN QUERY SELECT 'wrong_nonce', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    ELSIF user_subject IS NULL OR length(user_subject) NOT BETWEEN 1 AND 255 THEN
        RETURN QUERY SELECT 'no_user', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    -- The admitted domains: a verified e-mail's domain, or the hd / tid claim.
    IF cardinality(provider.allowed_domains) > 0 THEN
        email := CASE WHEN jsonb_typeof(payload->'email') = 'string' AND payload->'email_verified' IS DISTINCT FROM 'false'::jsonb THEN payload->>'email' END;
        IF email LIKE '%@%' THEN
            seen := seen || lower(reverse(split_part(reverse(email), '@', 1)));
        END IF;
        IF jsonb_typeof(payload->'hd') = 'string' THEN seen := seen || lower(payload->>'hd'); END IF;
        IF jsonb_typeof(payload->'tid') = 'string' THEN seen := seen || lower(payload->>'tid'); END IF;
        IF NOT seen && (SELECT array_agg(lower(d)) FROM unnest(provider.allowed_domains) d) THEN
            RETURN QUERY SELECT 'domain_not_allowed', NULL::uuid, NULL::text, left(coalesce(seen[1], '—'), 100);
            RETURN;
        END IF;
    END IF;
    IF provider.teacher_claim IS NOT NULL AND cardinality(provider.teacher_values) > 0 THEN
        is_teacher := CASE jsonb_typeof(payload->provider.teacher_claim)
            WHEN 'string' THEN payload->>provider.teacher_claim = ANY (provider.teacher_values)
            WHEN 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements_text(payload->provider.teacher_claim) v WHERE v = ANY (provider.teacher_values))
            ELSE false END;
    END IF;
    IF NOT public.token_first_use(flow.id_token, payload) THEN
        RETURN QUERY SELECT 'replayed', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    UPDATE public.sso_states s SET signed_in_at = now_at WHERE s.state_hash = flow.state_hash;

    IF flow.link_user IS NOT NULL THEN
        IF public.app_user_id() IS DISTINCT FROM flow.link_user THEN
            RETURN QUERY SELECT 'link_signed_out', NULL::uuid, NULL::text, NULL::text;
            RETURN;
        END IF;
        SELECT i.user_id INTO owner FROM public.external_identities i WHERE i.kind = 'sso' AND i.issuer = provider.issuer AND i.subject = user_subject;
        IF owner IS NOT NULL AND owner <> flow.link_user THEN
            RETURN QUERY SELECT 'link_taken', NULL::uuid, NULL::text, NULL::text;
            RETURN;
        END IF;
        INSERT INTO public.external_identities (kind, issuer, subject, user_id) VALUES ('sso', provider.issuer, user_subject, flow.link_user)
        ON CONFLICT (kind, issuer, subject) DO NOTHING;
        RETURN QUERY SELECT 'linked', flow.link_user, flow.return_to, NULL::text;
        RETURN;
    END IF;
    SELECT a.id, a.disabled INTO account
    FROM public.external_account('sso', provider.issuer, user_subject, public.jwt_display_name(payload), 'Student', is_teacher, now_at) a;
    IF account.disabled THEN
        RETURN QUERY SELECT 'disabled', NULL::uuid, NULL::text, NULL::text;
        RETURN;
    END IF;
    PERFORM public.auth_open_session(account.id, p_session, p_csrf, p_user_agent, now_at);
    RETURN QUERY SELECT 'ok', account.id, flow.return_to, NULL::text;
END
$function$;
ALTER FUNCTION sso_finish(p_browser bytea, p_provider bigint, p_session text, p_csrf text, p_user_agent text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION sso_finish(p_browser bytea, p_provider bigint, p_session text, p_csrf text, p_user_agent text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sso_finish(p_browser bytea, p_provider bigint, p_session text, p_csrf text, p_user_agent text) TO portal_app;
