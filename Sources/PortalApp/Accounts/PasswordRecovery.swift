import ExamData
import Foundation
import HTTPServer

/// `/forgot` and `/reset`: a student who forgot their password gets back in with a one-time
/// code from their teacher or an admin (`ResetCodeIssuer`), choosing a new password as they
/// use it, or — when the portal sends mail — with a link to their address (`MailRecovery`); an
/// account that signs in with its school is told to do that. The database decides
/// (`auth_reset_password`): only a live code issued for that very account sets a password, once,
/// and the answer is the same whether the username exists or not.
struct PasswordRecovery: Sendable {
    let pages: PageRenderer
    let accounts: AccountPages
    let hashing: HashLimiter
    /// The portal sends mail: the page offers a link by e-mail too (`MailRecovery`).
    let mailEnabled: Bool

    /// The ways back in; with mail, the form that sends a link.
    struct ForgotPage: Encodable {
        var mailEnabled: Bool
        var login = ""
        var loginError: String?
    }

    struct ResetPage: Encodable {
        var username = ""
        /// The code as it was typed (or carried by the card's QR code).
        var code = ""
        /// A first sign-in with a start code from a class's cards: the page says so.
        var first = false
        var error: String?
        var fieldErrors: [String: String] = [:]
    }

    /// `GET /forgot`: the ways back in.
    func forgot(_ request: PortalRequest) throws -> Response {
        try pages.privatePage("accounts/forgot", ForgotPage(mailEnabled: mailEnabled), request)
    }

    /// `GET /reset`: the form, filled in from a card's QR code (`?user=…&code=…`).
    func resetForm(_ request: PortalRequest) throws -> Response {
        let query = request.query
        let page = ResetPage(
            username: String((query["user"] ?? "").prefix(40)), code: ResetCode(typed: query["code"] ?? "")?.grouped ?? "", first: query["first"] != nil)
        return try pages.privatePage("accounts/reset", page, request)
    }

    /// The reset form: the username, the code a teacher or admin gave, the new password twice,
    /// whether it is the account's first password, and the browser's zone.
    struct CodeResetForm: PostedForm {
        let username: String
        let code: String
        let first: Bool
        let password: NewPassword
        let browserZone: BrowserZone

        init(_ form: FormReader) throws(PageRefusal) {
            username = String(form.text("username").trimmingCharacters(in: .whitespaces).prefix(40))
            (code, first) = (form.quoted("code", length: 40), form.has("first"))
            (password, browserZone) = (NewPassword(form), BrowserZone(form))
        }
    }

    /// `POST /reset`: a new password with the username and a live code; signed in at once.
    func reset(_ request: PortalRequest) throws -> Response {
        let form = try request.form(CodeResetForm.self)
        var page = ResetPage(username: form.username, code: form.code, first: form.first)
        let password = form.password.password
        let code = ResetCode(typed: page.code)
        if page.username.isEmpty { page.fieldErrors["username"] = pages.message("account.reset_no_username", for: request) }
        if code == nil { page.fieldErrors["code"] = pages.message("account.reset_code_invalid", for: request) }
        if let problem = form.password.problem(username: page.username) {
            page.fieldErrors[problem.field] = pages.message(problem.key, for: request, problem.arguments)
        }
        guard page.fieldErrors.isEmpty, let code else { return try show(page, request, status: .unprocessableContent) }
        let store = PasswordResetStore()
        // Asked before the new password is hashed: a flood of guesses costs no hashing.
        let wait = try request.database.run { try store.wait(address: request.clientAddress, username: page.username, $0) }
        if wait > 0 { return try throttled(page, request, wait: wait) }
        guard let hash = try hashing.run({ Crypto.hashPassword(password) }) else {
            throw HTTPError(.internalServerError, "The password could not be hashed.")
        }
        let token = Crypto.token()
        let outcome = try request.database.run {
            try store.reset(
                username: page.username, codeHash: code.hash, newHash: hash, token: token, csrfToken: Crypto.token(),
                userAgent: request.headers["User-Agent"] ?? "", address: request.clientAddress, $0)
        }
        switch outcome {
        case .reset:
            // A pupil's first sign-in from a class card lands on their class and its work; a
            // reset, on the settings that say the password changed.
            var response = Response.redirect(to: page.first ? "/me/classes" : "/me/settings?password=1")
            try accounts.signedIn(token: token, request, &response)
            // A teacher made the account: its zone was never confirmed.
            try accounts.takeBrowserZone(form.browserZone, request)
            return response
        case .refused:
            page.error = pages.message("account.reset_refused", for: request)
            return try show(page, request, status: .unprocessableContent)
        case .wait(let seconds):
            return try throttled(page, request, wait: seconds)
        }
    }

    private func show(_ page: ResetPage, _ request: PortalRequest, status: HTTPStatus) throws -> Response {
        try pages.privatePage("accounts/reset", page, request, status: status)
    }

    private func throttled(_ page: ResetPage, _ request: PortalRequest, wait: Int) throws -> Response {
        var page = page
        let minutes = (wait + 59) / 60
        page.error = pages.message("account.reset_throttled", locale: pages.locale(for: request), ["minutes": String(minutes)], count: Double(minutes))
        var response = try show(page, request, status: .tooManyRequests)
        response.headers.set("Retry-After", String(wait))
        return response
    }
}
