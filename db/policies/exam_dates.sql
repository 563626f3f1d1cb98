-- Every policy of exam_dates: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('exam_dates');

CREATE POLICY exam_dates_auth ON exam_dates TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY exam_dates_own ON exam_dates TO portal_app
    USING (user_id = (SELECT app_user_id())) WITH CHECK (user_id = (SELECT app_user_id()));
