-- Every policy of questions: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('questions');

-- Points earned stay earned when a question is later retired.
CREATE POLICY questions_leaderboard ON questions FOR SELECT TO portal_leaderboard USING (true);
CREATE POLICY questions_changes ON questions FOR SELECT TO portal_auth USING (true);
CREATE POLICY questions_admin ON questions FOR ALL USING ((SELECT app_role()) = 'admin') WITH CHECK ((SELECT app_role()) = 'admin');
CREATE POLICY questions_read ON questions FOR SELECT
    USING ((status = 'published' AND deleted_at IS NULL) OR (SELECT app_role()) = 'admin');
