-- An exam an admin makes in the dashboard is a draft until they publish it: students see only
-- published exams (exams_read), admins every one. Every exam made so far, and every exam a
-- format-1 import brings, is published.
ALTER TABLE exams ADD COLUMN published boolean NOT NULL DEFAULT true;
