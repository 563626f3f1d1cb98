-- Every policy of live_participants: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('live_participants');

CREATE POLICY live_participants_auth ON live_participants FOR SELECT TO portal_auth USING (true);
CREATE POLICY live_participants_join ON live_participants FOR INSERT TO portal_app
    WITH CHECK (CASE WHEN user_id IS NULL THEN (SELECT app_user_id()) IS NULL AND guest_key = (SELECT app_guest_key())
                     ELSE user_id = (SELECT app_user_id()) AND guest_key IS NULL END);
CREATE POLICY live_participants_read ON live_participants FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR guest_key = (SELECT app_guest_key())
           OR (SELECT app_role()) = 'admin' OR event_id = ANY ((SELECT app_hosted_events())::uuid[]));
-- A guest's entries past their retention (purge_expired_data).
CREATE POLICY live_participants_purge ON live_participants FOR DELETE TO portal_auth USING (guest_key IS NOT NULL);
