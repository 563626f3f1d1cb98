-- Every policy of user_emails: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('user_emails');

-- An address is read by its owner and by an admin only; it is written by the definer
-- functions that verify and remove it.
CREATE POLICY user_emails_own ON user_emails FOR SELECT TO portal_app
    USING (user_id = (SELECT app_user_id()) OR (SELECT app_role()) = 'admin');
CREATE POLICY user_emails_auth ON user_emails TO portal_auth USING (true) WITH CHECK (true);
