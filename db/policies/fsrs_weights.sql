-- Every policy of fsrs_weights: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('fsrs_weights');

CREATE POLICY fsrs_weights_auth ON fsrs_weights TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY fsrs_weights_own ON fsrs_weights TO portal_app
    USING (user_id = (SELECT app_user_id())) WITH CHECK (user_id = (SELECT app_user_id()));
