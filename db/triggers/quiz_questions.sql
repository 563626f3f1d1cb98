-- Every trigger of quiz_questions: the file is the whole set (schema_drop_triggers starts from
-- none, so a trigger taken out of the file leaves the database too). Triggers of one event fire
-- in the order of their names.
SELECT schema_drop_triggers('quiz_questions');

-- A quiz holds published questions of its own exam. (quiz_questions_check)
CREATE TRIGGER quiz_questions_check BEFORE INSERT OR UPDATE ON public.quiz_questions
    FOR EACH ROW
    EXECUTE FUNCTION public.quiz_questions_check();
