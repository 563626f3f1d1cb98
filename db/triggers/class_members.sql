-- Every trigger of class_members: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('class_members');

-- A change to a student's rows changes their data version (their pages are built again).
-- (data_version_bump)
CREATE TRIGGER class_members_data_version AFTER INSERT OR DELETE OR UPDATE ON public.class_members
    FOR EACH ROW
    EXECUTE FUNCTION public.data_version_bump();

-- A class's members changed: its page is built again. (notify_class_changed)
CREATE TRIGGER class_members_notify AFTER INSERT OR DELETE OR UPDATE ON public.class_members
    FOR EACH ROW
    EXECUTE FUNCTION public.notify_class_changed();
