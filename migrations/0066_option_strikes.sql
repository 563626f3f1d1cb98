-- The options a student struck out in a mock exam, by question (`{"<question id>": [1, 3]}`):
-- kept with the session as the test centre's screen keeps them, with no effect on marking.
ALTER TABLE study_sessions ADD COLUMN struck jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(struck) = 'object');
GRANT UPDATE (struck) ON study_sessions TO portal_app;
