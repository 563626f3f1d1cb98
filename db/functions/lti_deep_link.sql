-- The request a token names, while unused and under an hour old; `p_use` marks it used (the
-- answer goes back to the platform once). `data` as JSON text.
CREATE OR REPLACE FUNCTION public.lti_deep_link(p_token text, p_use boolean)
 RETURNS TABLE(platform_id bigint, deployment_id text, return_url text, data text, accepts_line_item boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
#variable_conflict use_column
BEGIN
    IF p_use THEN
        RETURN QUERY UPDATE public.lti_deep_links l SET used_at = public.app_now()
            WHERE l.token_hash = sha256(convert_to(p_token, 'UTF8')) AND l.used_at IS NULL AND l.created_at > public.app_now() - interval '1 hour'
            RETURNING l.platform_id, l.deployment_id, l.return_url, l.data::text, l.accepts_line_item;
    ELSE
        RETURN QUERY SELECT l.platform_id, l.deployment_id, l.return_url, l.data::text, l.accepts_line_item FROM public.lti_deep_links l
            WHERE l.token_hash = sha256(convert_to(p_token, 'UTF8')) AND l.used_at IS NULL AND l.created_at > public.app_now() - interval '1 hour';
    END IF;
END
$function$;
ALTER FUNCTION lti_deep_link(p_token text, p_use boolean) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION lti_deep_link(p_token text, p_use boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lti_deep_link(p_token text, p_use boolean) TO portal_app;
