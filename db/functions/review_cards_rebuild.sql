-- The caller's cards made again from their answers (after a change of retention, weights or
-- exam day, or a guest's history claimed): how many there are, and how many came out different
-- from what was stored (none, when every answer went through the database as it should).
CREATE OR REPLACE FUNCTION public.review_cards_rebuild(p_user uuid DEFAULT NULL, OUT cards integer, OUT differing integer)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    student uuid := coalesce(p_user, public.app_user_id());
    before jsonb;
BEGIN
    -- Another student's cards only for the owner's `portal rebuild-cards` (never for the app).
    IF student IS NULL OR (p_user IS NOT NULL AND p_user IS DISTINCT FROM public.app_user_id() AND session_user = 'portal_app') THEN
        RAISE EXCEPTION 'only one''s own cards are rebuilt' USING ERRCODE = '42501';
    END IF;
    SELECT coalesce(jsonb_object_agg(c.question_id, to_jsonb(c) - 'user_id'), '{}') INTO before FROM public.review_cards c WHERE c.user_id = student;
    cards := public.review_card_rebuild(student, NULL);
    SELECT count(*) INTO differing FROM public.review_cards c
    WHERE c.user_id = student AND before -> c.question_id::text IS DISTINCT FROM to_jsonb(c) - 'user_id';
    differing := differing + (SELECT count(*) FROM jsonb_object_keys(before) k
                              WHERE NOT EXISTS (SELECT 1 FROM public.review_cards c WHERE c.user_id = student AND c.question_id::text = k));
    -- Cards have no data-version trigger of their own (every other write of a card comes with
    -- an answer or a session that has one): a rebuild that changed any says so itself.
    IF differing > 0 THEN
        PERFORM public.reader_changed(student);
    END IF;
END
$function$;
ALTER FUNCTION review_cards_rebuild(p_user uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION review_cards_rebuild(p_user uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION review_cards_rebuild(p_user uuid) TO portal_app, CURRENT_USER;
