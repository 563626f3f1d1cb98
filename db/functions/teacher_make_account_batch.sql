-- A teacher's batch of class accounts (`teacher_make_accounts`, whose rules and audit it keeps),
-- kept as a batch so its cards have an address: each person also brings `shown`, the start code
-- as the cards print it (checked against its hash), readable again by this teacher alone for a
-- day (`class_account_cards`). Returns the batch.
CREATE OR REPLACE FUNCTION public.teacher_make_account_batch(p_class uuid, p_people jsonb)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    made jsonb;
    batch uuid;
BEGIN
    IF jsonb_typeof(p_people) <> 'array' OR EXISTS (
        SELECT 1 FROM jsonb_array_elements(p_people) p
        WHERE jsonb_typeof(p->'shown') IS DISTINCT FROM 'string'
           OR encode(sha256(convert_to(replace(upper(p->>'shown'), '-', ''), 'UTF8')), 'hex') IS DISTINCT FROM lower(p->>'code')) THEN
        RAISE EXCEPTION 'each card''s code must be the code whose hash is given' USING ERRCODE = 'check_violation';
    END IF;
    SELECT jsonb_agg(jsonb_build_object('user', t.user_id, 'code', p_people->((t.ord - 1)::int)->>'shown') ORDER BY t.ord) INTO made
    FROM public.teacher_make_accounts(p_class, p_people) WITH ORDINALITY AS t(user_id, username, display_name, ord);
    INSERT INTO public.class_account_batches (class_id, teacher_id, made_at, cards)
    VALUES (p_class, public.app_user_id(), public.app_now(), coalesce(made, '[]'::jsonb))
    RETURNING id INTO batch;
    RETURN batch;
END
$function$;
ALTER FUNCTION teacher_make_account_batch(p_class uuid, p_people jsonb) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION teacher_make_account_batch(p_class uuid, p_people jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION teacher_make_account_batch(p_class uuid, p_people jsonb) TO portal_app;
