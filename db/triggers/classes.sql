-- Every trigger of classes: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('classes');

-- A class's own choices changed: its page is built again. (notify_class_row_changed)
CREATE TRIGGER classes_notify AFTER UPDATE OF public_boards ON public.classes
    FOR EACH ROW
    EXECUTE FUNCTION public.notify_class_row_changed();
