-- Every policy of class_members: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('class_members');

CREATE POLICY class_members_auth ON class_members FOR SELECT TO portal_auth USING (true);
CREATE POLICY class_members_auth_join ON class_members FOR INSERT TO portal_auth WITH CHECK (true);
CREATE POLICY class_members_auth_rejoin ON class_members FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);
-- A student leaves; a teacher removes a current member. Both only end a membership.
CREATE POLICY class_members_leave ON class_members FOR UPDATE TO portal_app
    USING (user_id = (SELECT app_user_id()) AND left_at IS NULL)
    WITH CHECK (user_id = (SELECT app_user_id()) AND left_at IS NOT NULL);
CREATE POLICY class_members_read ON class_members FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin' OR class_id = ANY ((SELECT app_taught_classes())::uuid[]));
CREATE POLICY class_members_remove ON class_members FOR UPDATE TO portal_app
    USING (class_id = ANY ((SELECT app_taught_classes())::uuid[]) AND left_at IS NULL)
    WITH CHECK (class_id = ANY ((SELECT app_taught_classes())::uuid[]) AND left_at IS NOT NULL);
