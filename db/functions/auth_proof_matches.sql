-- Whether a proof (the raw Argon2id output of a password with a stored hash's salt and cost)
-- matches the stored hash. Hashes of both sides: equal time whatever the proof, no prefix to learn.
CREATE OR REPLACE FUNCTION public.auth_proof_matches(p_encoded text, p_proof bytea)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT p_proof IS NOT NULL AND p_encoded IS NOT NULL
       AND sha256(p_proof) = sha256((SELECT parts.digest FROM public.auth_hash_parts(p_encoded) AS parts))
$function$;
ALTER FUNCTION auth_proof_matches(p_encoded text, p_proof bytea) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION auth_proof_matches(p_encoded text, p_proof bytea) FROM PUBLIC;
