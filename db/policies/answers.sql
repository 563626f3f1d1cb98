-- Every policy of answers: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('answers');

CREATE POLICY answers_leaderboard ON answers FOR SELECT TO portal_leaderboard
    USING (user_id IS NOT NULL);
CREATE POLICY answers_claim ON answers FOR UPDATE TO portal_auth USING (user_id IS NULL) WITH CHECK (user_id = app_user_id());
-- A deleted account's answers become anonymous (account_erase); nothing is given an owner this way.
CREATE POLICY answers_forget ON answers FOR UPDATE TO portal_auth USING (true) WITH CHECK (user_id IS NULL);
CREATE POLICY answers_claim_read ON answers FOR SELECT TO portal_auth USING (user_id IS NULL OR user_id = app_user_id());
CREATE POLICY answers_auth_read ON answers FOR SELECT TO portal_auth USING (true);
-- An answer is the caller's own; answers_admit, before this check, has locked its session and
-- refused it unless the session is the caller's (or their guest cookie's) and still open, so
-- the check does not look the session up a second time.
CREATE POLICY answers_insert ON answers FOR INSERT TO portal_app
    WITH CHECK (user_id IS NOT DISTINCT FROM (SELECT app_user_id()));
CREATE POLICY answers_of_students ON answers FOR SELECT TO portal_app USING (user_id = ANY ((SELECT app_students())::uuid[]));
CREATE POLICY answers_read ON answers FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin'
           OR (user_id IS NULL AND session_id IN (SELECT s.id FROM study_sessions s WHERE s.guest_key = (SELECT app_guest_key()))));
