-- Records a token as used (until it expires); false when it was used before.
CREATE OR REPLACE FUNCTION public.token_first_use(p_token text, p_claims jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    INSERT INTO public.used_tokens (digest, expires_at)
    VALUES (sha256(convert_to(p_token, 'UTF8')), to_timestamp((p_claims->>'exp')::numeric) + interval '1 minute')
    ON CONFLICT DO NOTHING;
    RETURN FOUND;
END
$function$;
