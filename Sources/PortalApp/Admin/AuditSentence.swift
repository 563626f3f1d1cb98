import ExamData

/// An audit entry told as a sentence in the reader's language ("Ana saved version 3 of the
/// question “Which port…” (published).") instead of its action code and JSON: one place that
/// knows every action the portal writes. An action it does not know is shown as it was stored.
enum AuditSentence {
    /// The sentence for `entry`; `stems` holds the questions the entries name.
    static func text(_ entry: AuditEntry, stems: [String: String], pages: PageRenderer, locale: String) -> String {
        let details = AuditDetails(entry.details)
        func say(_ key: String, _ extra: [String: String] = [:]) -> String {
            var arguments = ["who": entry.actor, "target": entry.target]
            arguments.merge(details.values) { _, detail in detail }
            arguments.merge(extra) { _, given in given }
            return pages.message("admin.audit_sentence.\(key)", locale: locale, arguments)
        }
        let stem = stems[entry.target].map { String($0.prefix(80)) + ($0.count > 80 ? "…" : "") } ?? entry.target
        func status(_ value: String?) -> String {
            value.map { pages.message("admin.state.\($0)", locale: locale) } ?? ""
        }
        func role(_ value: String?) -> String {
            value.map { pages.message("admin.role.\($0)", locale: locale) } ?? ""
        }
        func standing(_ disabled: String?) -> String {
            pages.message(disabled == "true" ? "admin.disabled" : "admin.active", locale: locale)
        }
        switch entry.action {
        case "question.create": return say("question_create", ["stem": stem, "status": status(details["status"])])
        case "question.edit": return say("question_edit", ["stem": stem, "status": status(details["status"])])
        case "content.import": return say(details["drafts"] == "yes" ? "content_import_drafts" : "content_import")
        case "question.publish": return say("question_publish", ["stem": stem])
        case "report.fixed": return say("report_fixed", ["stem": stem])
        case "report.dismissed": return say("report_dismissed", ["stem": stem])
        case "account.change":
            return say("account_change", [
                "before": role(details["role_before"]) + ", " + standing(details["disabled_before"]),
                "after": role(details["role"]) + ", " + standing(details["disabled"]),
            ])
        case "account.reset-code": return say("account_reset_code")
        case "account.deleted": return details["by"] == "retention" ? say("accounts_expired") : say("account_deleted")
        case "accommodation.change": return say("accommodation_change")
        case "region.create": return say("region_create")
        case "exam.create": return say("exam_create")
        case "exam.edit": return say("exam_edit")
        case "exam.blueprint": return say("exam_blueprint")
        case "exam.publish": return say("exam_publish")
        case "exam.unpublish": return say("exam_unpublish")
        case "teacher-invitation.create": return say("teacher_invitation_create")
        case "teacher-invitation.revoke": return say("teacher_invitation_revoke")
        case "teacher-invitation.used": return say("teacher_invitation_used")
        case "teacher-request.approved": return say("teacher_request_approved")
        case "teacher-request.refused": return say("teacher_request_refused")
        case "class.accounts-made": return say("class_accounts_made")
        case "lti.platform": return say("lti_platform")
        case "sso.provider": return say("sso_provider")
        default: return "\(entry.actor): \(entry.action) \(entry.target)"
        }
    }
}
