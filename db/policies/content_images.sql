-- Every policy of content_images: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('content_images');

CREATE POLICY content_images_admin ON content_images FOR INSERT TO portal_app WITH CHECK (app_role() = 'admin');
CREATE POLICY content_images_read ON content_images FOR SELECT USING (true);
