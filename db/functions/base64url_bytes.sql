-- base64url (no padding) as bytes; NULL when it is not base64url.
CREATE OR REPLACE FUNCTION public.base64url_bytes(p_text text)
 RETURNS bytea
 LANGUAGE plpgsql
 IMMUTABLE STRICT
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF p_text !~ '^[A-Za-z0-9_-]*$' OR length(p_text) % 4 = 1 THEN
        RETURN NULL;
    END IF;
    RETURN decode(rpad(translate(p_text, '-_', '+/'), (length(p_text) + 3) / 4 * 4, '='), 'base64');
END
$function$;
