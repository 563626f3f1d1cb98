-- Whether `p_signature` is an RSASSA-PKCS1-v1_5 signature with SHA-256 of `p_input` by the key
-- (n, e) of `p_octets` bytes (RFC 8017 §8.2.2: s^e mod n must equal the encoded digest).
CREATE OR REPLACE FUNCTION public.rs256_verifies(p_input text, p_signature bytea, p_modulus numeric, p_exponent numeric, p_octets integer)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE STRICT
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    signature numeric;
    encoded bytea;
BEGIN
    IF octet_length(p_signature) <> p_octets OR p_octets < 62 THEN
        RETURN false;
    END IF;
    signature := public.bytes_numeric(p_signature);
    IF signature >= p_modulus THEN
        RETURN false;
    END IF;
    -- 0x00 0x01 FF…FF 0x00, the DER DigestInfo of SHA-256, the digest.
    encoded := '\x0001'::bytea || decode(repeat('ff', p_octets - 3 - 51), 'hex') || '\x00'::bytea
        || '\x3031300d060960864801650304020105000420'::bytea || sha256(convert_to(p_input, 'UTF8'));
    RETURN public.numeric_modpow(signature, p_exponent, p_modulus) = public.bytes_numeric(encoded);
END
$function$;
