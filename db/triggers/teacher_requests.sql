-- Every trigger of teacher_requests: the file is the whole set (schema_drop_triggers starts from
-- none, so a trigger taken out of the file leaves the database too). Triggers of one event fire
-- in the order of their names.
SELECT schema_drop_triggers('teacher_requests');

-- A request filed or decided changes what the requester's own pages say (the dashboard's
-- notice of the decision). (data_version_bump)
CREATE TRIGGER teacher_requests_data_version AFTER INSERT OR DELETE OR UPDATE ON public.teacher_requests
    FOR EACH ROW
    EXECUTE FUNCTION public.data_version_bump();
