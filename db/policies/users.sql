-- Every policy of users: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('users');

CREATE POLICY users_auth ON users TO portal_auth USING (true) WITH CHECK (true);
-- Pupils' privacy: only students who turned "show me on leaderboards" on (it is off by
-- default) and whose account is active are visible to the leaderboard at all.
-- On the leaderboard: those who chose to be, and a teacher's pupils only where the teacher allows it.
CREATE POLICY users_leaderboard ON users FOR SELECT TO portal_leaderboard
    USING (show_on_leaderboard AND disabled_at IS NULL AND public_board_allowed(id, made_by));
CREATE POLICY users_of_students ON users FOR SELECT TO portal_app USING (id = ANY ((SELECT app_students())::uuid[]));
CREATE POLICY users_self ON users FOR SELECT TO portal_app
    USING (id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin');
CREATE POLICY users_self_update ON users FOR UPDATE TO portal_app
    USING (id = (SELECT app_user_id())) WITH CHECK (id = (SELECT app_user_id()));
