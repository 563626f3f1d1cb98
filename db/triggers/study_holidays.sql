-- Every trigger of study_holidays: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('study_holidays');

-- A change to a student's rows changes their data version (their pages are built again).
-- (data_version_bump)
CREATE TRIGGER study_holidays_version AFTER INSERT OR DELETE ON public.study_holidays
    FOR EACH ROW
    EXECUTE FUNCTION public.data_version_bump();
