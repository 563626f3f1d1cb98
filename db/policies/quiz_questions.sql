-- Every policy of quiz_questions: the file is the whole set (applying it drops the table's
-- policies first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('quiz_questions');

-- The questions of the teacher's own quizzes (quiz_questions_check keeps each in the quiz's exam).
CREATE POLICY quiz_questions_owner ON quiz_questions TO portal_app
    USING (quiz_id IN (SELECT q.id FROM public.quizzes q WHERE q.teacher_id = (SELECT app_user_id())))
    WITH CHECK (quiz_id IN (SELECT q.id FROM public.quizzes q WHERE q.teacher_id = (SELECT app_user_id())));
CREATE POLICY quiz_questions_auth ON quiz_questions FOR SELECT TO portal_auth USING (true);
