-- The salt, cost and digest of an encoded Argon2id hash ($argon2id$v=19$m=…,t=…,p=1$salt$hash).
CREATE OR REPLACE FUNCTION public.auth_hash_parts(p_encoded text, OUT salt bytea, OUT memlimit bigint, OUT opslimit integer, OUT digest bytea)
 RETURNS record
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    parts text[] := string_to_array(p_encoded, '$');
    costs text[];
BEGIN
    IF p_encoded IS NULL OR cardinality(parts) <> 6 OR parts[2] <> 'argon2id' THEN
        RETURN;
    END IF;
    costs := string_to_array(parts[4], ',');
    memlimit := substr(costs[1], 3)::bigint * 1024;
    opslimit := substr(costs[2], 3)::integer;
    -- libsodium writes base64 without padding; PostgreSQL reads it with.
    salt := decode(rpad(parts[5], (length(parts[5]) + 3) / 4 * 4, '='), 'base64');
    digest := decode(rpad(parts[6], (length(parts[6]) + 3) / 4 * 4, '='), 'base64');
END
$function$;
