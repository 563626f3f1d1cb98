-- Every policy of audit_log: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('audit_log');

CREATE POLICY audit_log_read ON audit_log FOR SELECT TO portal_app USING ((SELECT app_role()) = 'admin');
CREATE POLICY audit_log_write ON audit_log FOR INSERT TO portal_app
    WITH CHECK ((SELECT app_role()) = 'admin' AND actor_id = (SELECT app_user_id()));
CREATE POLICY audit_log_account_change ON audit_log FOR INSERT TO portal_auth WITH CHECK (action = 'account.change');
CREATE POLICY audit_log_accommodation_change ON audit_log FOR INSERT TO portal_auth WITH CHECK (action = 'accommodation.change');
CREATE POLICY audit_log_reset_code ON audit_log FOR INSERT TO portal_auth WITH CHECK (action = 'account.reset-code');
CREATE POLICY audit_log_accounts_made ON audit_log FOR INSERT TO portal_auth WITH CHECK (action = 'class.accounts-made');
-- teacher_request_decide: an admin's decision on a request to teach.
CREATE POLICY audit_log_teacher_request ON audit_log FOR INSERT TO portal_auth
    WITH CHECK (action IN ('teacher-request.approved', 'teacher-request.refused', 'teacher-invitation.used'));
-- my_audit_entries reads the entries about its caller, for their data export.
CREATE POLICY audit_log_account_deleted ON audit_log FOR INSERT TO portal_auth WITH CHECK (action = 'account.deleted');
-- A deleted account's name is taken out of the entries about it and by it (account_erase).
CREATE POLICY audit_log_forget ON audit_log FOR UPDATE TO portal_auth USING (true) WITH CHECK (true);
CREATE POLICY audit_log_about_caller ON audit_log FOR SELECT TO portal_auth USING (true);
-- The owner's `portal lti` commands leave their mark in the audit log too.
CREATE POLICY audit_log_owner_lti ON audit_log FOR INSERT TO CURRENT_USER WITH CHECK (action LIKE 'lti.%');
