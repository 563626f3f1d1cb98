-- Every trigger of live_answers: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('live_answers');

-- A live answer is admitted by the database's clock and judged, timed and scored there.
-- (live_answers_admit)
CREATE TRIGGER live_answers_admit BEFORE INSERT ON public.live_answers
    FOR EACH ROW
    EXECUTE FUNCTION public.live_answers_admit();
