-- Every policy of live_events: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('live_events');

-- Anyone with the code may see an event (its title, exam, timing); teachers and admins create
-- them; only the host starts or ends one.
CREATE POLICY live_events_read ON live_events FOR SELECT TO portal_app USING (true);
CREATE POLICY live_events_auth ON live_events FOR SELECT TO portal_auth USING (true);
CREATE POLICY live_events_auth_end ON live_events FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY live_events_create ON live_events FOR INSERT TO portal_app
    WITH CHECK (host_id = (SELECT app_user_id()) AND (SELECT app_role()) IN ('teacher', 'admin'));
CREATE POLICY live_events_host ON live_events FOR UPDATE TO portal_app
    USING (host_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin')
    WITH CHECK (host_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin');
