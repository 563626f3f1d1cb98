-- Every policy of teacher_invitations: the file is the whole set (applying it drops the table's
-- policies first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('teacher_invitations');

-- Admins make, list and revoke them; anyone else reaches one only by its token, through the
-- definer functions (teacher_invitation_look, teacher_invitation_accept).
CREATE POLICY teacher_invitations_admin ON teacher_invitations TO portal_app
    USING ((SELECT app_role()) = 'admin')
    WITH CHECK ((SELECT app_role()) = 'admin' AND created_by = (SELECT app_user_id()));
CREATE POLICY teacher_invitations_auth ON teacher_invitations TO portal_auth USING (true) WITH CHECK (true);
