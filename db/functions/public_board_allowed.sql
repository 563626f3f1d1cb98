-- Whether an account may appear on public leaderboards at all: any account its owner made, and
-- an account a teacher made only while it is in a class of that teacher's that allows it.
CREATE OR REPLACE FUNCTION public.public_board_allowed(p_user uuid, p_made_by uuid)
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT p_made_by IS NULL OR EXISTS (
        SELECT FROM public.class_members m JOIN public.classes c ON c.id = m.class_id
        WHERE m.user_id = p_user AND m.left_at IS NULL AND c.teacher_id = p_made_by AND c.public_boards)
$function$;
ALTER FUNCTION public_board_allowed(p_user uuid, p_made_by uuid) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION public_board_allowed(p_user uuid, p_made_by uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public_board_allowed(p_user uuid, p_made_by uuid) TO portal_leaderboard;
