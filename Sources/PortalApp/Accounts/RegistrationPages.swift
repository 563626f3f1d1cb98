import ExamData
import Foundation
import HTTPServer
import Identifiers
import QuestionEngine

/// Registering an account: the form refused field by field, limited per address.
extension AccountPages {
    /// The registration form: the account's username, name and new password, the zone chosen
    /// (or the browser's), and where to go next.
    struct RegistrationForm: PostedForm {
        let username: String
        let displayName: String
        let password: NewPassword
        /// The zone the form sent: the browser's, or the one chosen; the database keeps it only if it knows it.
        let timeZone: String
        let next: String?
        /// "I teach": the new account asks to teach next (`/me/teaching`); every account starts as
        /// a student's until an admin approves.
        let teaches: Bool
        /// A school's invitation to teach, when the account is made through its link.
        let invite: String?

        init(_ form: FormReader) throws(PageRefusal) {
            username = form.text("username").trimmingCharacters(in: .whitespaces)
            displayName = form.text("display_name").trimmingCharacters(in: .whitespaces)
            password = NewPassword(form)
            timeZone = String(TimeZoneChoices.resolve(form.text("time_zone")).prefix(64))
            next = form.optional("next")
            teaches = form.text("intent") == "teach"
            invite = SessionSettings.isWellFormed(form.text("invite")) ? form.text("invite") : nil
        }
    }

    func register(_ request: PortalRequest) throws -> Response {
        let form = try request.form(RegistrationForm.self)
        var page = FormPage(username: form.username, displayName: form.displayName, next: safeNext(form.next), teaches: form.teaches)
        if let invite = form.invite { page.invitation = try invitation(invite, request) }
        let password = form.password.password
        let timeZone = form.timeZone
        page.timeZoneGroups = TimeZoneChoices.groups(selected: timeZone.isEmpty ? TimeZoneChoices.likeliest(for: pages.locale(for: request)) : timeZone)
        if page.username.count < 3 || page.username.count > 40 || page.username.contains(where: { $0.isWhitespace || "/@:<>\"'".contains($0) }) {
            page.fieldErrors["username"] = pages.message("account.username_invalid", for: request)
        }
        if page.displayName.isEmpty || page.displayName.count > 80 {
            page.fieldErrors["display_name"] = pages.message("account.display_name_invalid", for: request)
        }
        if let problem = form.password.problem(username: page.username) {
            page.fieldErrors[problem.field] = pages.message(problem.key, for: request, problem.arguments)
        }
        guard page.fieldErrors.isEmpty else { return try show("accounts/register", request, page, status: .unprocessableContent) }
        // Counted before the hash: a flood of sign-ups cannot crowd out everyone's sign-ins.
        let wait = try request.database.run {
            try AccountStore().rateLimit("register", key: request.clientAddress, limit: registrationsPerHour, window: 3600, take: true, $0)
        }
        if wait > 0 {
            page.error = pages.message("account.register_throttled", for: request, ["minutes": String((wait + 59) / 60)])
            return tooMany(try show("accounts/register", request, page, status: .tooManyRequests), wait: wait)
        }
        guard let hash = try hashing.run({ Crypto.hashPassword(password) }) else {
            throw HTTPError(.internalServerError, "The password could not be hashed.")
        }
        let token = Crypto.token()
        guard try request.database.run({
            try AccountStore().register(
                username: page.username, displayName: page.displayName, passwordHash: hash, token: token, csrfToken: Crypto.token(),
                userAgent: request.headers["User-Agent"] ?? "", timeZone: timeZone, $0)
        }) != nil else {
            page.fieldErrors["username"] = pages.message("account.username_taken", for: request)
            return try show("accounts/register", request, page, status: .unprocessableContent)
        }
        var response = Response.redirect(to: form.teaches ? "/me/teaching" : page.next)
        try signedIn(token: token, request, &response)
        if let invite = form.invite {
            // Through a school's invitation: a teacher at once, or told why not (and asked to teach).
            let state = try request.database.run { try TeacherInvitationStore().accept(token: invite, $0) }
            response.headers.set("Location", state == .accepted ? "/teach?invited=1" : "/me/teaching?invitation=\(state.rawValue)")
        }
        return response
    }

    /// What an invitation's link says on the registration form: its school and where it stands.
    func invitation(_ token: String, _ request: PortalRequest) throws -> FormPage.Invitation? {
        guard SessionSettings.isWellFormed(token), let found = try request.database.run({ try TeacherInvitationStore().look(token: token, $0) }) else {
            return FormPage.Invitation(token: "", text: pages.message("account.invitation_unknown", for: request), open: false)
        }
        let open = found.state == .open
        return FormPage.Invitation(
            token: open ? token : "", text: pages.message("account.invitation_\(found.state.rawValue)", for: request, ["school": found.school]), open: open)
    }
}
