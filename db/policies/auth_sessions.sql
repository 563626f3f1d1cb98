-- Every policy of auth_sessions: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('auth_sessions');

CREATE POLICY sessions_auth ON auth_sessions TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY sessions_self ON auth_sessions FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin');
CREATE POLICY sessions_self_delete ON auth_sessions FOR DELETE TO portal_app USING (user_id = (SELECT app_user_id()));
