-- Every trigger of exam_dates: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('exam_dates');

-- A change to a student's rows changes their data version (their pages are built again).
-- (data_version_bump)
CREATE TRIGGER exam_dates_data_version AFTER INSERT OR DELETE OR UPDATE ON public.exam_dates
    FOR EACH ROW
    EXECUTE FUNCTION public.data_version_bump();
