-- Every policy of study_sessions: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('study_sessions');

CREATE POLICY study_sessions_leaderboard ON study_sessions FOR SELECT TO portal_leaderboard
    USING (finished_at IS NOT NULL AND user_id IS NOT NULL);
CREATE POLICY study_sessions_claim ON study_sessions FOR UPDATE TO portal_auth
    USING (user_id IS NULL) WITH CHECK (user_id = app_user_id() AND guest_key IS NULL);
-- (An updated row must stay visible under the SELECT policy, hence the caller's own rows there.)
CREATE POLICY study_sessions_claim_read ON study_sessions FOR SELECT TO portal_auth
    USING (user_id IS NULL OR user_id = app_user_id());
CREATE POLICY study_sessions_admin ON study_sessions FOR SELECT TO portal_app USING ((SELECT app_role()) = 'admin');
CREATE POLICY study_sessions_auth_read ON study_sessions FOR SELECT TO portal_auth USING (true);
CREATE POLICY study_sessions_finish ON study_sessions FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY study_sessions_of_students ON study_sessions FOR SELECT TO portal_app USING (user_id = ANY ((SELECT app_students())::uuid[]));
CREATE POLICY study_sessions_owner ON study_sessions TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (user_id IS NULL AND guest_key = (SELECT app_guest_key())))
    WITH CHECK (user_id = (SELECT app_user_id())
                OR (user_id IS NULL AND (SELECT app_user_id()) IS NULL AND guest_key = (SELECT app_guest_key())));
-- A guest's sessions past their retention (purge_expired_data).
CREATE POLICY study_sessions_purge ON study_sessions FOR DELETE TO portal_auth USING (guest_key IS NOT NULL);
