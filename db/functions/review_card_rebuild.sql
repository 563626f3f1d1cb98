-- A student's cards (of one question, or all when p_question is NULL) made again from their
-- answers, replayed in order through review_card_apply: what `portal rebuild-cards`, a change
-- of retention, weights or exam day, and a guest's history claimed all come to. Returns how
-- many cards there are now.
CREATE OR REPLACE FUNCTION public.review_card_rebuild(p_user uuid, p_question uuid)
 RETURNS integer
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    review record;
    made integer;
BEGIN
    DELETE FROM public.review_cards c WHERE c.user_id = p_user AND (p_question IS NULL OR c.question_id = p_question);
    FOR review IN SELECT * FROM public.review_history(p_user, p_question) LOOP
        PERFORM public.review_card_apply(p_user, review.question_id, review.rating, review.reviewed_at);
    END LOOP;
    SELECT count(*) INTO made FROM public.review_cards c WHERE c.user_id = p_user AND (p_question IS NULL OR c.question_id = p_question);
    RETURN made;
END
$function$;
REVOKE ALL ON FUNCTION review_card_rebuild(p_user uuid, p_question uuid) FROM PUBLIC;
ALTER FUNCTION review_card_rebuild(p_user uuid, p_question uuid) OWNER TO portal_auth;
