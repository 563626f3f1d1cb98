-- Every policy of quizzes: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('quizzes');

-- A teacher's own quizzes, made only by someone who teaches.
CREATE POLICY quizzes_owner ON quizzes TO portal_app
    USING (teacher_id = (SELECT app_user_id()))
    WITH CHECK (teacher_id = (SELECT app_user_id()) AND (SELECT app_role()) IN ('teacher', 'admin'));
-- quiz_questions_of_link reads the quiz of an assignment for its pupils.
CREATE POLICY quizzes_auth ON quizzes FOR SELECT TO portal_auth USING (true);
