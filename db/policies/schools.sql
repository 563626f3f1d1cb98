-- Every policy of schools: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('schools');

CREATE POLICY schools_read ON schools FOR SELECT TO portal_app USING (true);
CREATE POLICY schools_create ON schools FOR INSERT TO portal_app WITH CHECK ((SELECT app_role()) IN ('teacher', 'admin'));
