-- Every policy of live_answers: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('live_answers');

CREATE POLICY live_answers_auth ON live_answers FOR SELECT TO portal_auth USING (true);
CREATE POLICY live_answers_insert ON live_answers FOR INSERT TO portal_app
    WITH CHECK (EXISTS (SELECT 1 FROM live_participants p WHERE p.id = participant_id AND p.event_id = live_answers.event_id
                        AND (p.user_id = (SELECT app_user_id()) OR p.guest_key = (SELECT app_guest_key()))));
CREATE POLICY live_answers_read ON live_answers FOR SELECT TO portal_app
    USING ((SELECT app_role()) = 'admin' OR event_id = ANY ((SELECT app_hosted_events())::uuid[])
           OR participant_id IN (SELECT p.id FROM live_participants p
                                 WHERE p.user_id = (SELECT app_user_id()) OR p.guest_key = (SELECT app_guest_key())));
