-- Replaces the keys of a set with a JSON Web Key Set's RSA signing keys (others are left out);
-- the agent's call after a fetch. Returns how many keys the set now has.
CREATE OR REPLACE FUNCTION public.key_set_store(p_jwks_uri text, p_set jsonb)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    stored integer;
BEGIN
    INSERT INTO public.key_sets (jwks_uri) VALUES (p_jwks_uri) ON CONFLICT DO NOTHING;
    DELETE FROM public.key_set_keys k WHERE k.jwks_uri = p_jwks_uri;
    INSERT INTO public.key_set_keys (jwks_uri, kid, modulus, exponent, octets)
    SELECT DISTINCT ON (key->>'kid') p_jwks_uri, key->>'kid', public.bytes_numeric(n), public.bytes_numeric(e),
           octet_length(n) - CASE WHEN get_byte(n, 0) = 0 THEN 1 ELSE 0 END
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p_set->'keys') = 'array' THEN p_set->'keys' ELSE '[]'::jsonb END) key,
         LATERAL (SELECT public.base64url_bytes(key->>'n') AS n, public.base64url_bytes(key->>'e') AS e) raw
    WHERE key->>'kty' = 'RSA' AND coalesce(key->>'use', 'sig') = 'sig' AND length(key->>'kid') BETWEEN 1 AND 200
      AND raw.n IS NOT NULL AND raw.e IS NOT NULL AND octet_length(raw.n) BETWEEN 256 AND 1025 AND octet_length(raw.e) BETWEEN 1 AND 8
      AND (key->>'alg' IS NULL OR key->>'alg' = 'RS256');
    GET DIAGNOSTICS stored = ROW_COUNT;
    UPDATE public.key_sets s SET fetched_at = now_at, failed_at = NULL, problem = NULL, leased_until = NULL WHERE s.jwks_uri = p_jwks_uri;
    RETURN stored;
END
$function$;
REVOKE ALL ON FUNCTION key_set_store(p_jwks_uri text, p_set jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION key_set_store(p_jwks_uri text, p_set jsonb) TO portal_agent;
