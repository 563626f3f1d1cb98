-- A student's own data, downloadable by them (GDPR articles 15 and 20): the export reads their
-- rows as themselves, and two definer functions (my_answered_questions, my_audit_entries)
-- hand over what row-level security keeps from a student — the text of a question at the
-- version they answered, the audit log's entries about them. Those read as portal_auth.
GRANT SELECT ON audit_log TO portal_auth;
