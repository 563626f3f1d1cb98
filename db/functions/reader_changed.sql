-- A write for a student: their data version becomes this transaction's id (once per
-- transaction, however many rows it wrote), and every instance hears of it, so their kept
-- pages stop being shown. The one place the rule lives; data_version_bump calls it for a
-- table's rows, review_cards_rebuild for the cards it rewrote. A NOTIFY makes every notifying
-- commit wait for the others; a student's answers, the most frequent write by far, are
-- announced by the portal instead, gathered (`p_announce` false: ReaderAnnouncer).
CREATE OR REPLACE FUNCTION public.reader_changed(p_user uuid, p_announce boolean DEFAULT true)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    stamp bigint := pg_catalog.pg_current_xact_id()::text::bigint;
BEGIN
    UPDATE public.users SET data_version = stamp WHERE id = p_user AND data_version <> stamp;
    IF FOUND AND p_announce THEN
        PERFORM pg_catalog.pg_notify('portal_readers', p_user::text || ':' || stamp);
    END IF;
END
$function$;
ALTER FUNCTION reader_changed(p_user uuid, p_announce boolean) OWNER TO portal_auth;
REVOKE ALL ON FUNCTION reader_changed(p_user uuid, p_announce boolean) FROM PUBLIC;
