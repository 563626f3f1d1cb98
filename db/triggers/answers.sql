-- Every trigger of answers: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('answers');

-- An answer is admitted and judged by the database before it is stored (its refusals name their
-- reason). (answers_admit)
CREATE TRIGGER answers_admit BEFORE INSERT ON public.answers
    FOR EACH ROW
    EXECUTE FUNCTION public.answers_admit();

-- A change to a student's rows changes their data version (their pages are built again).
-- (data_version_bump)
CREATE TRIGGER answers_data_version AFTER DELETE OR UPDATE ON public.answers
    FOR EACH ROW
    EXECUTE FUNCTION public.data_version_bump();

-- The answers a statement admitted change their students' data versions and review their cards
-- (answers_schedule), as a set: one batch of offline answers is scheduled (or its student's
-- cards rebuilt) once. answers_admit, before each row, decides what the answer is worth; a
-- guest's answer has no card and no rating.
CREATE TRIGGER answers_schedule AFTER INSERT ON public.answers
    REFERENCING NEW TABLE AS admitted
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.answers_schedule();
