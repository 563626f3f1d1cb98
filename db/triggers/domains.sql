-- Every trigger of domains: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('domains');

-- The catalogue changed: every instance drops its kept catalogue pages. (notify_content)
CREATE TRIGGER domains_notify AFTER INSERT OR DELETE OR UPDATE ON public.domains
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.notify_content();

-- An exam's content is marked updated when its domains change. (exams_touch_from_domains)
CREATE TRIGGER domains_touch_insert AFTER INSERT ON public.domains
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.exams_touch_from_domains();

-- An exam's content is marked updated when its domains change. (exams_touch_from_domains)
CREATE TRIGGER domains_touch_update AFTER UPDATE ON public.domains
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.exams_touch_from_domains();
