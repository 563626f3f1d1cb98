-- Quizzes of chosen questions: a teacher picks published questions of one exam, in an order,
-- names the quiz and assigns it to a class (a share link that carries the quiz). Teachers read
-- and write their own quizzes; a pupil reads a quiz's questions only through an assignment of a
-- class they are in (quiz_questions_of_link), and only those still published.
CREATE TABLE quizzes (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    teacher_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    exam_id bigint NOT NULL REFERENCES exams(id) ON DELETE CASCADE,
    title text NOT NULL CHECK (title = btrim(title) AND length(title) BETWEEN 1 AND 120),
    created_at timestamptz NOT NULL
);
CREATE INDEX quizzes_teacher ON quizzes (teacher_id, created_at DESC);
CREATE TABLE quiz_questions (
    quiz_id uuid NOT NULL REFERENCES quizzes(id) ON DELETE CASCADE,
    question_id uuid NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
    position integer NOT NULL CHECK (position >= 0),
    PRIMARY KEY (quiz_id, question_id)
);
CREATE INDEX quiz_questions_order ON quiz_questions (quiz_id, position);
ALTER TABLE quizzes ENABLE ROW LEVEL SECURITY;
ALTER TABLE quizzes FORCE ROW LEVEL SECURITY;
ALTER TABLE quiz_questions ENABLE ROW LEVEL SECURITY;
ALTER TABLE quiz_questions FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE, DELETE ON quizzes, quiz_questions TO portal_app;
GRANT SELECT ON quizzes, quiz_questions TO portal_auth;

-- An assignment of a quiz: its questions are the quiz's, so it belongs to a class.
ALTER TABLE share_links ADD COLUMN quiz_id uuid REFERENCES quizzes(id) ON DELETE RESTRICT;
ALTER TABLE share_links ADD CONSTRAINT share_links_quiz_class CHECK (quiz_id IS NULL OR class_id IS NOT NULL);
CREATE INDEX share_links_quiz ON share_links (quiz_id) WHERE quiz_id IS NOT NULL;

-- A share link's description says which quiz it assigns: the functions' results change shape
-- (db/functions makes them again).
DROP FUNCTION IF EXISTS share_link_by_token(bytea, timestamp with time zone);
DROP FUNCTION IF EXISTS share_link_of_my_class(uuid, timestamp with time zone);
