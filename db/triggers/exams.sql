-- Every trigger of exams: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('exams');

-- The catalogue changed: every instance drops its kept catalogue pages. (notify_content)
CREATE TRIGGER exams_notify AFTER INSERT OR DELETE OR UPDATE ON public.exams
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.notify_content();

-- An exam's content is marked updated when its own row changes. (exams_touch_self)
CREATE TRIGGER exams_touch BEFORE UPDATE ON public.exams
    FOR EACH ROW
    EXECUTE FUNCTION public.exams_touch_self();
