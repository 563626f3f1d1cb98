-- Every policy of calendar_feeds: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('calendar_feeds');

-- The student sees that they have a feed (never its token, which is not kept) and may end it;
-- making one and reading one by its token are the definer functions' (calendar_feed_*).
CREATE POLICY calendar_feeds_own ON calendar_feeds FOR SELECT TO portal_app USING (user_id = (SELECT app_user_id()));
CREATE POLICY calendar_feeds_own_end ON calendar_feeds FOR DELETE TO portal_app USING (user_id = (SELECT app_user_id()));
CREATE POLICY calendar_feeds_auth ON calendar_feeds TO portal_auth USING (true) WITH CHECK (true);
