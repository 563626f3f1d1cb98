-- A reader's data version: changed by every transaction that writes what a student's own pages
-- show (answers, study sessions, review cards, class memberships), so those pages — the
-- dashboard, a teacher's view of a class — can be kept in memory and known current with one
-- indexed read of a number instead of aggregating thousands of rows for every request.
--
-- The version is the id of the last transaction that wrote for the student: it changes once per
-- transaction however many rows it writes, never returns to an earlier value, and costs the
-- answering transaction one update of a row it already references.

ALTER TABLE users ADD COLUMN data_version bigint NOT NULL DEFAULT 0;
-- A number that only says "something changed": the app may read it for anyone it may read.
GRANT SELECT (data_version) ON users TO portal_app;

CREATE FUNCTION data_version_bump() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    stamp bigint := pg_catalog.pg_current_xact_id()::text::bigint;
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.user_id IS NOT NULL THEN
        UPDATE public.users SET data_version = stamp WHERE id = OLD.user_id AND data_version <> stamp;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.user_id IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
        UPDATE public.users SET data_version = stamp WHERE id = NEW.user_id AND data_version <> stamp;
    END IF;
    RETURN NULL;
END
$$;

-- Handing a function to a role needs that role to have CREATE on the schema, for a moment.
GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION data_version_bump() OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION data_version_bump() FROM PUBLIC;

CREATE TRIGGER answers_data_version AFTER INSERT OR UPDATE OR DELETE ON answers
    FOR EACH ROW EXECUTE FUNCTION data_version_bump();
CREATE TRIGGER study_sessions_data_version AFTER INSERT OR UPDATE OR DELETE ON study_sessions
    FOR EACH ROW EXECUTE FUNCTION data_version_bump();
CREATE TRIGGER review_cards_data_version AFTER INSERT OR UPDATE OR DELETE ON review_cards
    FOR EACH ROW EXECUTE FUNCTION data_version_bump();
CREATE TRIGGER class_members_data_version AFTER INSERT OR UPDATE OR DELETE ON class_members
    FOR EACH ROW EXECUTE FUNCTION data_version_bump();
