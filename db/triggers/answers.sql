-- An admitted answer reviews its card (answers_schedule); answers_admit, before it, decides what
-- the answer is worth.
CREATE OR REPLACE TRIGGER answers_schedule AFTER INSERT ON answers
    FOR EACH ROW EXECUTE FUNCTION answers_schedule();
