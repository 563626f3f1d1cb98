-- Every policy of mail_outbox: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('mail_outbox');

-- Only the definer functions (owned by portal_auth) queue, take and mark messages; portal_app
-- has no policy (an admin reads the counts through mail_outbox_summary).
CREATE POLICY mail_outbox_auth ON mail_outbox TO portal_auth USING (true) WITH CHECK (true);
