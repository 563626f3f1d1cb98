CREATE OR REPLACE FUNCTION public.prune_anonymous_state()
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    total integer := 0;
    removed integer;
BEGIN
    DELETE FROM public.lti_states s WHERE s.created_at < now_at - interval '15 minutes';
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.sso_states s WHERE s.created_at < now_at - interval '15 minutes';
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.used_tokens t WHERE t.expires_at < now_at;
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.rate_limits r WHERE r.window_start < now_at - interval '1 day';
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    DELETE FROM public.form_sends f WHERE f.created_at < now_at - interval '1 day';
    GET DIAGNOSTICS removed = ROW_COUNT;
    total := total + removed;
    -- A class's start codes are readable for a day, then forgotten (the accounts stay listed).
    UPDATE public.class_account_batches b
    SET codes_shown = false, cards = (SELECT coalesce(jsonb_agg(card.value - 'code' ORDER BY card.ord), '[]'::jsonb)
                                      FROM jsonb_array_elements(b.cards) WITH ORDINALITY AS card(value, ord))
    WHERE b.codes_shown AND b.made_at < now_at - interval '1 day';
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN total + removed;
END
$function$;
ALTER FUNCTION prune_anonymous_state() OWNER TO portal_auth;
REVOKE ALL ON FUNCTION prune_anonymous_state() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION prune_anonymous_state() TO portal_app;
