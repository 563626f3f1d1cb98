-- An admitted answer reviews its card (answers_schedule); answers_admit, before it, decides what
-- the answer is worth. A guest's answer has no card, and no rating: the function is not called.
CREATE OR REPLACE TRIGGER answers_schedule AFTER INSERT ON answers
    FOR EACH ROW WHEN (NEW.user_id IS NOT NULL AND NEW.rating IS NOT NULL) EXECUTE FUNCTION answers_schedule();
