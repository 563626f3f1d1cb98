-- Every policy of import_checks: the file is the whole set (applying it drops the table's
-- policies first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('import_checks');

-- An admin's own checked files.
CREATE POLICY import_checks_own ON import_checks TO portal_app
    USING (admin_id = (SELECT app_user_id()) AND (SELECT app_role()) = 'admin')
    WITH CHECK (admin_id = (SELECT app_user_id()) AND (SELECT app_role()) = 'admin');
