-- Every policy of accommodations: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('accommodations');

CREATE POLICY accommodations_admin ON accommodations FOR SELECT TO portal_app USING ((SELECT app_role()) = 'admin');
CREATE POLICY accommodations_auth ON accommodations TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY accommodations_of_students ON accommodations FOR SELECT TO portal_app
    USING (student_id = ANY ((SELECT app_students())::uuid[]));
CREATE POLICY accommodations_own ON accommodations FOR SELECT TO portal_app USING (student_id = (SELECT app_user_id()));
