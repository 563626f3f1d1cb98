-- Counts one hit of `p_key` in `p_bucket` (when p_take) and says how many seconds to wait
-- before the next is allowed, 0 when it is: at most p_limit hits per p_window_seconds.
CREATE OR REPLACE FUNCTION public.rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer, p_take boolean)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    now_at timestamptz := public.app_now();
    window_length interval := make_interval(secs => greatest(p_window_seconds, 1));
    key_value bytea := sha256(convert_to(p_key, 'UTF8'));
    hit record;
BEGIN
    IF p_take THEN
        INSERT INTO public.rate_limits AS r (bucket, key_hash, window_start, hits) VALUES (p_bucket, key_value, now_at, 1)
        ON CONFLICT (bucket, key_hash) DO UPDATE
            SET hits = CASE WHEN r.window_start <= now_at - window_length THEN 1 ELSE r.hits + 1 END,
                window_start = CASE WHEN r.window_start <= now_at - window_length THEN now_at ELSE r.window_start END
        RETURNING r.window_start, r.hits INTO hit;
        -- The hit that went over the limit does not go through either.
        IF hit.hits > p_limit THEN
            RETURN greatest(1, ceil(extract(epoch FROM hit.window_start + window_length - now_at)))::integer;
        END IF;
        DELETE FROM public.rate_limits WHERE (bucket, key_hash) IN (
            SELECT r.bucket, r.key_hash FROM public.rate_limits r WHERE r.window_start < now_at - interval '1 day' LIMIT 10);
        RETURN 0;
    END IF;
    SELECT r.window_start, r.hits INTO hit FROM public.rate_limits r WHERE r.bucket = p_bucket AND r.key_hash = key_value;
    IF FOUND AND hit.window_start > now_at - window_length AND hit.hits >= p_limit THEN
        RETURN greatest(1, ceil(extract(epoch FROM hit.window_start + window_length - now_at)))::integer;
    END IF;
    RETURN 0;
END
$function$;
ALTER FUNCTION rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer, p_take boolean) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer, p_take boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION rate_limit(p_bucket text, p_key text, p_limit integer, p_window_seconds integer, p_take boolean) TO portal_app;
