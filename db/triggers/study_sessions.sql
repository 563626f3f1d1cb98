-- Every trigger of study_sessions: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('study_sessions');

-- A new session is admitted: its deadline with the student's extra time, one running mock exam per
-- exam. (study_sessions_admit)
CREATE TRIGGER study_sessions_admit BEFORE INSERT ON public.study_sessions
    FOR EACH ROW
    EXECUTE FUNCTION public.study_sessions_admit();

-- A share link's attempts are counted and capped. (study_sessions_attempts)
CREATE TRIGGER study_sessions_attempts BEFORE INSERT ON public.study_sessions
    FOR EACH ROW
    EXECUTE FUNCTION public.study_sessions_attempts();

-- A change to a student's rows changes their data version (their pages are built again).
-- (data_version_bump)
CREATE TRIGGER study_sessions_data_version AFTER INSERT OR DELETE OR UPDATE ON public.study_sessions
    FOR EACH ROW
    EXECUTE FUNCTION public.data_version_bump();

-- A session's history stays as it was (but for a change of owner). (study_sessions_frozen)
CREATE TRIGGER study_sessions_frozen BEFORE UPDATE ON public.study_sessions
    FOR EACH ROW
    EXECUTE FUNCTION public.study_sessions_frozen();

-- A finished session launched from an LMS queues its score for the LMS. (lti_queue_score)
CREATE TRIGGER study_sessions_lti_score AFTER UPDATE OF finished_at ON public.study_sessions
    FOR EACH ROW
    WHEN (((old.finished_at IS NULL) AND (new.finished_at IS NOT NULL)))
    EXECUTE FUNCTION public.lti_queue_score();
