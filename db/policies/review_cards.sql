-- Every policy of review_cards: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('review_cards');

CREATE POLICY review_cards_admin ON review_cards FOR SELECT TO portal_app USING ((SELECT app_role()) = 'admin');
CREATE POLICY review_cards_auth ON review_cards TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY review_cards_of_students ON review_cards FOR SELECT TO portal_app USING (user_id = ANY ((SELECT app_students())::uuid[]));
-- A student reads their own cards; only the database's functions write them.
CREATE POLICY review_cards_owner ON review_cards FOR SELECT TO portal_app USING (user_id = (SELECT app_user_id()));
