-- Every trigger of regions: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('regions');

-- The catalogue changed: every instance drops its kept catalogue pages. (notify_content)
CREATE TRIGGER regions_notify AFTER INSERT OR DELETE OR UPDATE ON public.regions
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.notify_content();
