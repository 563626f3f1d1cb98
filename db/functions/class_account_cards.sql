-- A batch's cards for the teacher who made it (nobody else: no rows), in the order made: each
-- account's name and username as they are now, and its start code while the batch is under a
-- day old (NULL after: the codes are forgotten, and new ones are made by a reset). `made_at`
-- tells the page how long the codes last; an account since removed from the class is left out.
CREATE OR REPLACE FUNCTION public.class_account_cards(p_batch uuid)
 RETURNS TABLE(class_id uuid, class_name text, made_at timestamptz, user_id uuid, display_name text, username text, code text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT b.class_id, c.name, b.made_at, u.id, u.display_name, u.username,
           CASE WHEN b.codes_shown AND b.made_at > public.app_now() - interval '1 day' THEN card.value->>'code' END
    FROM public.class_account_batches b
    JOIN public.classes c ON c.id = b.class_id
    CROSS JOIN LATERAL jsonb_array_elements(b.cards) WITH ORDINALITY AS card(value, ord)
    JOIN public.users u ON u.id = (card.value->>'user')::uuid
    WHERE b.id = p_batch AND b.teacher_id = public.app_user_id()
      AND EXISTS (SELECT 1 FROM public.class_members m WHERE m.class_id = b.class_id AND m.user_id = u.id AND m.left_at IS NULL)
    ORDER BY card.ord
$function$;
ALTER FUNCTION class_account_cards(p_batch uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION class_account_cards(p_batch uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION class_account_cards(p_batch uuid) TO portal_app;
