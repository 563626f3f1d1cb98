-- ---------------------------------------------------------------------------------------------
-- Fill-in answers: NFC, blanks (ASCII, no-break, typographic and ideographic spaces) trimmed and
-- each inner run made one space (FillInRule.normalized).
CREATE OR REPLACE FUNCTION public.fill_in_normalized(p_text text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
BEGIN
    -- PL/pgSQL, like response_shape_ok: its plan is kept rather than parsed again per call.
    RETURN regexp_replace(
        regexp_replace(normalize(p_text, NFC),
                       '^[ \t\n\r\v\f\u00a0\u2000-\u200a\u202f\u205f\u3000]+|[ \t\n\r\v\f\u00a0\u2000-\u200a\u202f\u205f\u3000]+$', '', 'g'),
        '[ \t\n\r\v\f\u00a0\u2000-\u200a\u202f\u205f\u3000]+', ' ', 'g');
END
$function$;
