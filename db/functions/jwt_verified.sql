-- A compact JWS signed with RS256 by a key of the set at `p_jwks_uri`, whose times hold now:
-- 'ok' with its claims, else 'malformed', 'algorithm', 'keys_pending' (the set lacks its kid and
-- was not fetched in the last ten seconds: the caller asks for it, `key_set_wanted`),
-- 'unknown_key' (a set fetched just now lacks it), 'keys_unreachable' (the set's last fetch failed,
-- or was asked for half a minute ago and never made; the reason as `problem`), 'bad_signature',
-- 'expired', 'not_yet_valid'. Times have a minute's leeway.
CREATE OR REPLACE FUNCTION public.jwt_verified(p_token text, p_jwks_uri text, OUT outcome text, OUT claims jsonb, OUT problem text)
 RETURNS record
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    parts text[];
    header jsonb;
    signature bytea;
    key record;
    key_set record;
    now_epoch numeric := extract(epoch FROM public.app_now());
BEGIN
    parts := string_to_array(p_token, '.');
    IF length(p_token) > 16384 OR cardinality(parts) <> 3 THEN
        outcome := 'malformed';
        RETURN;
    END IF;
    BEGIN
        header := convert_from(public.base64url_bytes(parts[1]), 'UTF8')::jsonb;
        claims := convert_from(public.base64url_bytes(parts[2]), 'UTF8')::jsonb;
    EXCEPTION WHEN OTHERS THEN
        outcome := 'malformed';
        claims := NULL;
        RETURN;
    END;
    signature := public.base64url_bytes(parts[3]);
    IF header IS NULL OR claims IS NULL OR signature IS NULL OR jsonb_typeof(header) <> 'object' OR jsonb_typeof(claims) <> 'object' THEN
        outcome := 'malformed';
        claims := NULL;
        RETURN;
    END IF;
    IF header->>'alg' IS DISTINCT FROM 'RS256' THEN
        outcome := 'algorithm';
        problem := left(coalesce(header->>'alg', 'none given'), 20);
        claims := NULL;
        RETURN;
    END IF;
    SELECT k.* INTO key FROM public.key_set_keys k WHERE k.jwks_uri = p_jwks_uri AND k.kid = header->>'kid';
    IF NOT FOUND THEN
        SELECT s.* INTO key_set FROM public.key_sets s WHERE s.jwks_uri = p_jwks_uri;
        IF FOUND AND key_set.failed_at IS NOT NULL AND key_set.failed_at > coalesce(key_set.fetched_at, '-infinity')
           AND key_set.failed_at > public.app_now() - interval '1 minute' THEN
            outcome := 'keys_unreachable';
            problem := key_set.problem;
        ELSIF FOUND AND key_set.fetched_at > public.app_now() - interval '10 seconds' THEN
            -- Fetched just now, and the key is not in it: the token is not the issuer's.
            outcome := 'unknown_key';
            problem := left(coalesce(header->>'kid', 'none given'), 80);
        ELSIF FOUND AND key_set.wanted_at < public.app_now() - interval '30 seconds'
              AND key_set.wanted_at > coalesce(key_set.fetched_at, '-infinity') THEN
            outcome := 'keys_unreachable';
            problem := 'the key set has not been fetched in time (is portal auth-agent running?)';
        ELSE
            outcome := 'keys_pending';
            problem := left(coalesce(header->>'kid', 'none given'), 80);
        END IF;
        claims := NULL;
        RETURN;
    END IF;
    IF NOT public.rs256_verifies(parts[1] || '.' || parts[2], signature, key.modulus, key.exponent, key.octets) THEN
        outcome := 'bad_signature';
        claims := NULL;
        RETURN;
    END IF;
    IF jsonb_typeof(claims->'exp') <> 'number' OR (claims->>'exp')::numeric + 60 < now_epoch THEN
        outcome := 'expired';
    ELSIF (jsonb_typeof(claims->'iat') = 'number' AND (claims->>'iat')::numeric > now_epoch + 60)
       OR (jsonb_typeof(claims->'nbf') = 'number' AND (claims->>'nbf')::numeric > now_epoch + 60) THEN
        outcome := 'not_yet_valid';
    ELSE
        outcome := 'ok';
        RETURN;
    END IF;
    claims := NULL;
END
$function$;
ALTER FUNCTION jwt_verified(p_token text, p_jwks_uri text, OUT outcome text, OUT claims jsonb, OUT problem text) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION jwt_verified(p_token text, p_jwks_uri text, OUT outcome text, OUT claims jsonb, OUT problem text) FROM PUBLIC;
