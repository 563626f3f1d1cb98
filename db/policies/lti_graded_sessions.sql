-- Every policy of lti_graded_sessions: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('lti_graded_sessions');

CREATE POLICY lti_graded_sessions_auth ON lti_graded_sessions FOR SELECT TO portal_auth USING (true);
CREATE POLICY lti_graded_sessions_own ON lti_graded_sessions TO portal_app
    USING (EXISTS (SELECT 1 FROM study_sessions s WHERE s.id = session_id AND s.user_id = app_user_id()))
    WITH CHECK (EXISTS (SELECT 1 FROM study_sessions s WHERE s.id = session_id AND s.user_id = app_user_id() AND s.finished_at IS NULL)
                AND EXISTS (SELECT 1 FROM external_identities i JOIN lti_platforms p ON p.issuer = i.issuer
                            WHERE p.id = platform_id AND i.kind = 'lti' AND i.subject = lti_graded_sessions.subject AND i.user_id = app_user_id()));
