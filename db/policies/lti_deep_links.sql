-- Every policy of lti_deep_links: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('lti_deep_links');

CREATE POLICY lti_deep_links_add ON lti_deep_links FOR INSERT TO portal_app
    WITH CHECK (user_id = app_user_id() AND app_role() IN ('teacher', 'admin') AND used_at IS NULL);
CREATE POLICY lti_deep_links_auth ON lti_deep_links TO portal_auth USING (true) WITH CHECK (true);
