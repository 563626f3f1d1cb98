import ExamData
import Foundation
import HTTPServer
import Identifiers
import QuestionEngine

/// `/login`, `/register`, `/logout` and `/me/settings`.
///
/// The database checks passwords: the server hashes what was typed with the account's salt and
/// cost and hands over only that proof; it never reads a stored hash. Every attempt is reserved
/// (and counted) in the database before any hashing, so a burst of guesses, from any number of
/// instances, gets no more tries than the limit.
struct AccountPages: Sendable {
    let pages: PageRenderer
    let settings: SessionSettings
    let hashing: HashLimiter
    let clock: @Sendable () -> Date
    /// Sessions this instance resolved lately: what ends or changes a session is forgotten
    /// here at once (other instances hear of it from the database).
    let viewers: ViewerCache
    /// Registrations per client address per hour (each costs a password hash).
    let registrationsPerHour: Int
    /// The portal sends mail: settings offer an address (`EmailAddressPages`).
    let mailEnabled: Bool

    struct FormPage: Encodable {
        var username = ""
        var displayName = ""
        var next = ""
        /// `next`, escaped for a link's query (the sign-in and registration pages link each
        /// other), filled in as the page is shown.
        var nextQuery = ""
        /// Registration's time zones, the browser's chosen by script, else the language's likeliest.
        var timeZoneGroups: [TimeZoneChoices.Group] = []
        /// Registration's "I teach" (else "I study").
        var teaches = false
        /// A school's invitation to teach, from the link the form was opened by.
        var invitation: Invitation?

        struct Invitation: Encodable {
            /// Carried by the form while the invitation is open ("" otherwise).
            var token: String
            var text: String
            var open: Bool
        }
        var error: String?
        var fieldErrors: [String: String] = [:]
        /// The identity providers to sign in with instead (the sign-in page's buttons).
        var providers: [ProviderButton] = []
        var hasProviders = false
    }

    /// A single sign-on provider's button: its label and where it begins.
    struct ProviderButton: Encodable {
        var label: String
        var href: String
    }

    /// `GET /login`.
    func loginForm(_ request: PortalRequest) throws -> Response {
        try showLogin(request, FormPage(next: safeNext(request.query["next"] ?? cameFrom(request))))
    }

    /// `GET /register`.
    func registerForm(_ request: PortalRequest) throws -> Response {
        var page = FormPage(next: safeNext(request.query["next"] ?? cameFrom(request)))
        if let invite = request.query["invite"] { page.invitation = try invitation(invite, request) }
        page.timeZoneGroups = TimeZoneChoices.groups(selected: TimeZoneChoices.likeliest(for: pages.locale(for: request)))
        return try show("accounts/register", request, page)
    }

    /// `GET /me/settings`, with a word on what was just done.
    func settingsPage(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let query = request.query
        if let saved = query["saved"] {
            return try showSettings(request, user, noticeText: SettingsChanges.confirmation(saved, pages: pages, locale: pages.locale(for: request)))
        }
        let notice = query["password"] != nil ? "account.password_changed"
            : query["ended"] != nil ? "account.sessions_ended" : query["linked"] != nil ? "sso.linked"
            : query["unlinked"] != nil ? "sso.unlinked" : query["email"] == "sent" ? "account.email_sent"
            : query["email"] == "removed" ? "account.email_removed" : nil
        return try showSettings(request, user, notice: notice)
    }

    /// Where signing in or registering leads: the page asked for, else the student's dashboard
    /// (what is due and what to do next), never the exam list a second time.
    func safeNext(_ next: String?) -> String { LocalPath.validated(next) ?? "/me" }

    /// The page the header's "Sign in" or "Create an account" was followed from, to come back
    /// to afterwards (an account page itself is not one to come back to).
    private func cameFrom(_ request: PortalRequest) -> String? {
        guard let page = LocalPath.referringPage(request.headers) else { return nil }
        let path = String(page.prefix { $0 != "?" })
        return ["/", "/login", "/register", "/forgot", "/reset", "/logout"].contains(path) || path.hasPrefix("/reset/") ? nil : page
    }

    func show(_ template: String, _ request: PortalRequest, _ page: FormPage, status: HTTPStatus = .ok) throws -> Response {
        var page = page
        page.nextQuery = LocalPath.escaped(page.next)
        return try pages.privatePage(template, page, request, status: status)
    }

    func showLogin(_ request: PortalRequest, _ page: FormPage, status: HTTPStatus = .ok) throws -> Response {
        var page = page
        let next = page.next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "%2F"
        page.providers = try request.database.run { try SSOStore().providers($0) }.map {
            ProviderButton(label: $0.label, href: "/auth/\($0.slug)?next=\(next)")
        }
        page.hasProviders = !page.providers.isEmpty
        return try show("accounts/login", request, page, status: status)
    }

    /// 429 with `Retry-After`, the page saying how long to wait.
    func tooMany(_ response: Response, wait seconds: Int) -> Response {
        var response = response
        response.headers.set("Retry-After", String(seconds))
        return response
    }
}
