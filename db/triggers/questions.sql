-- Every trigger of questions: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('questions');

-- A question's exam is its domain's. (questions_set_exam)
CREATE TRIGGER questions_exam BEFORE INSERT OR UPDATE OF domain_id, exam_id ON public.questions
    FOR EACH ROW
    EXECUTE FUNCTION public.questions_set_exam();

-- A picture named only by its file's name keeps its question a draft. (questions_hold_unnamed_pictures)
CREATE TRIGGER questions_hold_unnamed BEFORE INSERT OR UPDATE ON public.questions
    FOR EACH ROW
    EXECUTE FUNCTION public.questions_hold_unnamed_pictures();

-- Every version of a question is kept as it was. (questions_keep_version)
CREATE TRIGGER questions_keep_version AFTER INSERT OR UPDATE ON public.questions
    FOR EACH ROW
    EXECUTE FUNCTION public.questions_keep_version();

-- An exam's content is marked updated when its questions change. (exams_touch_from_questions)
CREATE TRIGGER questions_touch_delete AFTER DELETE ON public.questions
    REFERENCING OLD TABLE AS changed_rows
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.exams_touch_from_questions();

-- An exam's content is marked updated when its questions change. (exams_touch_from_questions)
CREATE TRIGGER questions_touch_insert AFTER INSERT ON public.questions
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.exams_touch_from_questions();

-- An exam's content is marked updated when its questions change. (exams_touch_from_questions)
CREATE TRIGGER questions_touch_update AFTER UPDATE ON public.questions
    REFERENCING NEW TABLE AS changed_rows
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.exams_touch_from_questions();

-- An edit to a question makes a new version. (questions_bump_version)
CREATE TRIGGER questions_version BEFORE UPDATE ON public.questions
    FOR EACH ROW
    EXECUTE FUNCTION public.questions_bump_version();
