-- Every trigger of share_links: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('share_links');

-- A class's members changed: its page is built again. (notify_class_changed)
CREATE TRIGGER share_links_notify AFTER INSERT OR DELETE OR UPDATE ON public.share_links
    FOR EACH ROW
    EXECUTE FUNCTION public.notify_class_changed();
