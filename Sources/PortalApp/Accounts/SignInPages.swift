import ExamData
import Foundation
import HTTPServer
import Identifiers
import QuestionEngine

/// Signing in (the database checks the proof and counts the attempt) and signing out.
extension AccountPages {
    /// The sign-in form: username, password, where to go next and the browser's zone.
    struct SignInForm: PostedForm {
        let username: String
        let password: String
        let next: String?
        let browserZone: BrowserZone

        init(_ form: FormReader) throws(PageRefusal) {
            (username, password, next) = (form.text("username").trimmingCharacters(in: .whitespaces), form.text("password"), form.optional("next"))
            browserZone = BrowserZone(form)
        }
    }

    func login(_ request: PortalRequest) throws -> Response {
        let form = try request.form(SignInForm.self)
        let (username, password, next) = (form.username, form.password, safeNext(form.next))
        let store = AccountStore()
        let reservation = try request.database.run { try store.beginLogin(username: username, address: request.clientAddress, $0) }
        let failed = { try showLogin(request, FormPage(username: username, next: next, error: pages.message("account.login_failed", for: request)), status: .unauthorized) }
        switch reservation {
        case .wait(let seconds):
            let page = FormPage(username: username, next: next, error: pages.message("account.throttled", for: request, ["minutes": String((seconds + 59) / 60)]))
            return tooMany(try showLogin(request, page, status: .tooManyRequests), wait: seconds)
        case .attempt(let attempt, let salt, let memoryLimit, let passes):
            // A password over 1 KiB is refused before any hashing (no account has one); the
            // attempt still counts.
            guard password.utf8.count <= PasswordPolicy.maximumBytes,
                  let proof = try hashing.run({ Crypto.passwordProof(password, salt: salt, passes: passes, memoryLimit: memoryLimit) }) else {
                return try failed()
            }
            let token = Crypto.token()
            guard try request.database.run({
                try store.finishLogin(
                    attempt: attempt, proof: proof, token: token, csrfToken: Crypto.token(), userAgent: request.headers["User-Agent"] ?? "",
                    address: request.clientAddress, $0)
            }) != nil else {
                return try failed()
            }
            var response = Response.redirect(to: next)
            try signedIn(token: token, request, &response)
            try takeBrowserZone(form.browserZone, request)
            return response
        }
    }

    /// The browser now holds a brand-new session (a cookie planted before is never promoted);
    /// a guest who signs in or makes an account keeps what they practised in this browser.
    func signedIn(token: String, _ request: PortalRequest, _ response: inout Response) throws {
        response.setCookie(settings.sessionCookie(token))
        request.database.use(sessionToken: token)
        request.database.use(guestToken: nil)
        if let guest = request.cookies[settings.guestCookieName], SessionSettings.isWellFormed(guest) {
            try request.database.transaction { connection in
                if try StudyStore().claimGuestSessions(guestToken: guest, connection) > 0 {
                    _ = try ReviewCardStore().rebuild(connection)
                }
            }
            response.setCookie(SetCookie.expired(name: settings.guestCookieName, secure: settings.secure))
        }
    }

    /// After a sign-in: the browser's zone (`browser_zone`, filled by its script) becomes the
    /// account's when the account's zone was never confirmed (the database decides).
    func takeBrowserZone(_ browser: BrowserZone, _ request: PortalRequest) throws {
        guard let zone = browser.zone else { return }
        _ = try request.database.run { try AccountStore().takeBrowserTimeZone(zone, $0) }
    }

    func logout(_ request: PortalRequest) throws -> Response {
        if let user = request.user {
            // Ended now or already: signed out either way.
            _ = try request.database.transaction { try AccountStore().endSession(id: user.sessionID, $0) }
            viewers.forget(sessionID: user.sessionID)
        }
        var response = Response.redirect(to: "/")
        response.setCookie(SetCookie.expired(name: settings.cookieName, secure: settings.secure))
        return response
    }
}
