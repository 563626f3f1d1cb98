import ExamData
import Foundation
import HTTPServer

/// Recovery by e-mail, when the portal sends mail: "Forgot password?" takes a username or an
/// address (`POST /forgot`) and answers the same whether or not an account matches; the
/// database sends a link (`/reset/{token}`, an hour, once) to the account's verified address;
/// opening it offers a new password, which ends every other sign-in and signs this browser in.
struct MailRecovery: Sendable {
    let pages: PageRenderer
    let accounts: AccountPages
    let hashing: HashLimiter
    let wording: MailWording

    struct SentPage: Encodable {}

    struct LinkPage: Encodable {
        var token: String
        var live: Bool
        var error: String?
        var fieldErrors: [String: String] = [:]
    }

    /// The forgotten-password form: the username or e-mail address typed.
    struct ForgotForm: PostedForm {
        let login: String

        init(_ form: FormReader) throws(PageRefusal) { login = String(form.text("login").trimmingCharacters(in: .whitespaces).prefix(254)) }
    }

    /// A mail link's form: the new password twice.
    struct NewPasswordForm: PostedForm {
        let password: NewPassword

        init(_ form: FormReader) throws(PageRefusal) { password = NewPassword(form) }
    }

    /// `POST /forgot`: a link to the account's address, if there is one; the same page either way.
    func request(_ request: PortalRequest) throws -> Response {
        let login = try request.form(ForgotForm.self).login
        guard !login.isEmpty else {
            let page = PasswordRecovery.ForgotPage(mailEnabled: true, login: "", loginError: pages.message("account.forgot_no_login", for: request))
            return try pages.privatePage("accounts/forgot", page, request, status: .unprocessableContent)
        }
        // Worded before asking, whether or not an account matches: the same work either way.
        let message = try wording.draft(.passwordReset, locale: pages.locale(for: request))
        let wait = try request.database.run {
            try PasswordResetStore().requestByMail(login: login, address: request.clientAddress, message: message, $0)
        }
        guard wait == 0 else {
            let minutes = (wait + 59) / 60
            let page = PasswordRecovery.ForgotPage(
                mailEnabled: true, login: login,
                loginError: pages.message("account.reset_throttled", locale: pages.locale(for: request), ["minutes": String(minutes)], count: Double(minutes)))
            var response = try pages.privatePage("accounts/forgot", page, request, status: .tooManyRequests)
            response.headers.set("Retry-After", String(wait))
            return response
        }
        return try pages.privatePage("accounts/forgot_sent", SentPage(), request)
    }

    /// `GET /reset/{token}`: the new password's form, or why the link no longer works.
    func linkForm(_ request: PortalRequest, token: String) throws -> Response {
        let live = try MailToken.isWellFormed(token) && request.database.run { try PasswordResetStore().linkIsLive(token, $0) }
        return try show(LinkPage(token: live ? token : "", live: live), request, status: live ? .ok : .gone)
    }

    /// `POST /reset/{token}`: the new password; signed in at once.
    func reset(_ request: PortalRequest, token: String) throws -> Response {
        guard MailToken.isWellFormed(token) else { return try show(LinkPage(token: "", live: false), request, status: .gone) }
        let typed = try request.form(NewPasswordForm.self).password
        let password = typed.password
        var page = LinkPage(token: token, live: true)
        if let problem = typed.problem(username: "") {
            page.fieldErrors[problem.field] = pages.message(problem.key, for: request, problem.arguments)
        }
        guard page.fieldErrors.isEmpty else { return try show(page, request, status: .unprocessableContent) }
        // A dead link costs no hashing.
        guard try request.database.run({ try PasswordResetStore().linkIsLive(token, $0) }) else {
            return try show(LinkPage(token: "", live: false), request, status: .gone)
        }
        guard let hash = try hashing.run({ Crypto.hashPassword(password) }) else {
            throw HTTPError(.internalServerError, "The password could not be hashed.")
        }
        let session = Crypto.token()
        let user = try request.database.run {
            try PasswordResetStore().resetByLink(
                token: token, newHash: hash, sessionToken: session, csrfToken: Crypto.token(), userAgent: request.headers["User-Agent"] ?? "", $0)
        }
        guard user != nil else { return try show(LinkPage(token: "", live: false), request, status: .gone) }
        var response = Response.redirect(to: "/me/settings?password=1")
        try accounts.signedIn(token: session, request, &response)
        return response
    }

    private func show(_ page: LinkPage, _ request: PortalRequest, status: HTTPStatus) throws -> Response {
        try pages.privatePage("accounts/reset_link", page, request, status: status)
    }
}
