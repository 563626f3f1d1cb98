-- Every policy of mail_unsubscribes: the file is the whole set (applying it drops the table's
-- policies first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('mail_unsubscribes');

-- Only the definer functions (mail_digest_queue, mail_unsubscribe) touch it; the app has no grant.
CREATE POLICY mail_unsubscribes_auth ON mail_unsubscribes TO portal_auth USING (true) WITH CHECK (true);
