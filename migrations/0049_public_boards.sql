-- The pupils whose accounts a teacher made appear on public leaderboards only when that teacher
-- allows it for their class (public_board_allowed, in the leaderboard's policy on users). The
-- teacher's choice changes the class's page, so it announces the class as changed.
ALTER TABLE classes ADD COLUMN public_boards boolean NOT NULL DEFAULT false;
GRANT UPDATE (public_boards) ON classes TO portal_app;

CREATE FUNCTION notify_class_row_changed() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    PERFORM pg_catalog.pg_notify('portal_readers', 'class:' || NEW.id);
    RETURN NULL;
END
$$;
CREATE TRIGGER classes_notify AFTER UPDATE OF public_boards ON classes FOR EACH ROW EXECUTE FUNCTION notify_class_row_changed();
