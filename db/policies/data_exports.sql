-- Every policy of data_exports: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('data_exports');

-- A student's archive is theirs alone: asked for, filled in and taken as themselves.
CREATE POLICY data_exports_own ON data_exports TO portal_app
    USING (user_id = (SELECT app_user_id())) WITH CHECK (user_id = (SELECT app_user_id()));
