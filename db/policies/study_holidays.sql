-- Every policy of study_holidays: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('study_holidays');

-- A student's holidays are theirs alone: set, read and cancelled as themselves.
CREATE POLICY study_holidays_own ON study_holidays TO portal_app
    USING (user_id = (SELECT app_user_id())) WITH CHECK (user_id = (SELECT app_user_id()));
CREATE POLICY study_holidays_auth ON study_holidays TO portal_auth USING (true) WITH CHECK (true);
