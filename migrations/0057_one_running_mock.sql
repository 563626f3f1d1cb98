-- One running mock exam per student and exam (study_sessions_admit refuses a second): a student
-- who asks for another is asked first, and one who chooses to end the running attempt has it
-- scored as it stands and marked `set_aside` (study_session_set_aside), so the attempt they
-- abandoned is not taken as their first attempt by the questions' statistics (item_responses).
ALTER TABLE study_sessions ADD COLUMN set_aside boolean NOT NULL DEFAULT false;
GRANT UPDATE (set_aside) ON study_sessions TO portal_auth;
CREATE INDEX study_sessions_running_mocks ON study_sessions (exam_id) WHERE mode = 'mock' AND finished_at IS NULL;
