-- The answers a statement admitted change their students' data versions and review their cards
-- (answers_schedule), as a set: one batch of offline answers is scheduled (or its student's
-- cards rebuilt) once. answers_admit, before each row, decides what the answer is worth; a
-- guest's answer has no card and no rating.
CREATE OR REPLACE TRIGGER answers_schedule AFTER INSERT ON answers
    REFERENCING NEW TABLE AS admitted FOR EACH STATEMENT EXECUTE FUNCTION answers_schedule();
