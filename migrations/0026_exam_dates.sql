-- The day a student sits an exam. Until then their reviews of its questions aim at it: a card
-- that would fall below the retention they aim at by that day is due the day before at the
-- latest, and in the last days review stops bringing new questions. Their own row only; a
-- change reschedules their cards (a new data version, as for any change of their schedule).
CREATE TABLE exam_dates (
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    exam_id bigint NOT NULL REFERENCES exams(id) ON DELETE CASCADE,
    sits_on date NOT NULL,
    set_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, exam_id)
);
ALTER TABLE exam_dates ENABLE ROW LEVEL SECURITY;
ALTER TABLE exam_dates FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE, DELETE ON exam_dates TO portal_app;
CREATE POLICY exam_dates_own ON exam_dates TO portal_app
    USING (user_id = (SELECT app_user_id())) WITH CHECK (user_id = (SELECT app_user_id()));
GRANT SELECT, INSERT, UPDATE, DELETE ON exam_dates TO portal_auth;
CREATE POLICY exam_dates_auth ON exam_dates TO portal_auth USING (true) WITH CHECK (true);

CREATE TRIGGER exam_dates_data_version AFTER INSERT OR UPDATE OR DELETE ON exam_dates
    FOR EACH ROW EXECUTE FUNCTION data_version_bump();
