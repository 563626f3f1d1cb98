-- Every policy of push_subscriptions: the file is the whole set (applying it drops the table's
-- policies first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('push_subscriptions');

-- A student sees and removes their own devices (never another's endpoint or keys: the app may
-- not read those columns at all); subscribing and sending are the definer functions' (push_*).
CREATE POLICY push_subscriptions_own ON push_subscriptions FOR SELECT TO portal_app USING (user_id = (SELECT app_user_id()));
CREATE POLICY push_subscriptions_own_end ON push_subscriptions FOR DELETE TO portal_app USING (user_id = (SELECT app_user_id()));
CREATE POLICY push_subscriptions_auth ON push_subscriptions TO portal_auth USING (true) WITH CHECK (true);
