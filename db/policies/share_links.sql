-- Every policy of share_links: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('share_links');

CREATE POLICY share_links_auth ON share_links FOR SELECT TO portal_auth USING (true);
CREATE POLICY share_links_owner ON share_links TO portal_app
    USING (created_by = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin')
    WITH CHECK (created_by = (SELECT app_user_id()) AND (SELECT app_role()) IN ('teacher', 'admin')
                AND (class_id IS NULL OR class_id = ANY ((SELECT app_taught_classes())::uuid[]))
                -- A quiz assignment: the teacher's own quiz, of the link's exam.
                AND (quiz_id IS NULL OR EXISTS (SELECT 1 FROM public.quizzes z
                                                WHERE z.id = quiz_id AND z.teacher_id = (SELECT app_user_id()) AND z.exam_id = share_links.exam_id)));
