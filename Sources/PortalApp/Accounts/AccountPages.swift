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

    private func show(_ template: String, _ request: PortalRequest, _ page: FormPage, status: HTTPStatus = .ok) throws -> Response {
        var page = page
        page.nextQuery = LocalPath.escaped(page.next)
        return try pages.privatePage(template, page, request, status: status)
    }

    private func showLogin(_ request: PortalRequest, _ page: FormPage, status: HTTPStatus = .ok) throws -> Response {
        var page = page
        let next = page.next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "%2F"
        page.providers = try request.database.run { try SSOStore().providers($0) }.map {
            ProviderButton(label: $0.label, href: "/auth/\($0.slug)?next=\(next)")
        }
        page.hasProviders = !page.providers.isEmpty
        return try show("accounts/login", request, page, status: status)
    }

    /// 429 with `Retry-After`, the page saying how long to wait.
    private func tooMany(_ response: Response, wait seconds: Int) -> Response {
        var response = response
        response.headers.set("Retry-After", String(seconds))
        return response
    }

    // MARK: Signing in and out

    func login(_ request: PortalRequest) throws -> Response {
        let form = FormFields(body: request.body)
        let username = (form["username"] ?? "").trimmingCharacters(in: .whitespaces)
        let password = form["password"] ?? ""
        let next = safeNext(form["next"])
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
            try takeBrowserZone(from: form, request)
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
    func takeBrowserZone(from form: FormFields, _ request: PortalRequest) throws {
        guard let zone = form["browser_zone"], !zone.isEmpty, zone.utf8.count <= 64 else { return }
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

    // MARK: Registering

    func register(_ request: PortalRequest) throws -> Response {
        let form = FormFields(body: request.body)
        var page = FormPage(
            username: (form["username"] ?? "").trimmingCharacters(in: .whitespaces),
            displayName: (form["display_name"] ?? "").trimmingCharacters(in: .whitespaces), next: safeNext(form["next"]))
        let password = form["password"] ?? ""
        // The zone the form sent: the browser's, or the one chosen; the database keeps it only if it knows it.
        let timeZone = String(TimeZoneChoices.resolve(form["time_zone"] ?? "").prefix(64))
        page.timeZoneGroups = TimeZoneChoices.groups(selected: timeZone.isEmpty ? TimeZoneChoices.likeliest(for: pages.locale(for: request)) : timeZone)
        if page.username.count < 3 || page.username.count > 40 || page.username.contains(where: { $0.isWhitespace || "/@:<>\"'".contains($0) }) {
            page.fieldErrors["username"] = pages.message("account.username_invalid", for: request)
        }
        if page.displayName.isEmpty || page.displayName.count > 80 {
            page.fieldErrors["display_name"] = pages.message("account.display_name_invalid", for: request)
        }
        if let problem = PasswordPolicy.problem(password, username: page.username) {
            page.fieldErrors["password"] = pages.message(problem, for: request)
        } else if password != (form["password_confirmation"] ?? "") {
            page.fieldErrors["password_confirmation"] = pages.message("account.password_mismatch", for: request)
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
        var response = Response.redirect(to: page.next)
        try signedIn(token: token, request, &response)
        return response
    }

    // MARK: Settings

    struct SettingsPage: Encodable {
        struct Session: Encodable {
            var id: String
            var current: Bool
            var lastSeenAgo: String
            var userAgent: String
        }
        /// One retention the student may aim at, with the reviews a day it would ask for.
        struct Retention: Encodable {
            var value: String
            var label: String
            var selected: Bool
        }
        var username: String
        var displayName: String
        var timeZone: String
        var timeZoneGroups: [TimeZoneChoices.Group]
        var showOnLeaderboard: Bool
        /// Whether the account may appear on public leaderboards at all (a teacher's pupil only
        /// where the teacher allows it).
        var boardAllowed = true
        /// An interface language, named in itself (and marked as such for screen readers).
        struct Language: Encodable {
            var value: String
            var label: String
            var lang: String?
            var selected: Bool
        }
        /// The interface languages; "as my browser prefers" first.
        var languages: [Language]
        /// A colour scheme the pages may use, "as this device prefers" first.
        struct Scheme: Encodable {
            var value: String
            var label: String
            var selected: Bool
        }
        var schemes: [Scheme] = []
        var retentions: [Retention]
        /// "Over the last 30 days you remembered 87% of 140 reviews …", when there were any.
        var measuredRetention: String?
        var sessions: [Session]
        var otherSessions: Int
        var notice: String?
        var fieldErrors: [String: String] = [:]
        /// Single sign-on: each provider, linked to this account or not.
        struct SignIn: Encodable {
            var label: String
            var issuer: String
            var linked: Bool
            var linkHref: String
        }
        var signIns: [SignIn] = []
        var hasSignIns = false
        /// The account's e-mail address, when the portal sends mail.
        struct Email: Encodable {
            /// The account was made by a teacher: it holds no e-mail, and the page says why.
            var madeByTeacher = false
            /// The verified address, if any.
            var current: String?
            var since: String?
            /// What the form shows: the address typed (refused) or the current one.
            var typed: String
        }
        var email: Email?
    }

    /// What a refused settings form carried, shown again instead of the saved values (nil: the
    /// form did not send it, so the saved value shows).
    struct TypedSettings {
        var displayName: String?
        var timeZone: String?
        var showOnLeaderboard: Bool?
        /// "" for "as my browser prefers".
        var language: String?
        var colorScheme: ColorScheme?
        var retention: Double?
    }

    func showSettings(
        _ request: PortalRequest, _ user: SessionUser, notice: String? = nil, noticeText: String? = nil, fieldErrors: [String: String] = [:],
        typed: TypedSettings? = nil, typedEmail: String? = nil, status: HTTPStatus = .ok
    ) throws -> Response {
        let locale = pages.locale(for: request)
        let page = try request.database.transaction { connection -> SettingsPage in
            let store = AccountStore()
            guard let account = try store.settings(connection) else { throw HTTPError(.notFound, pages.message("error.no_account", locale: locale)) }
            let sessions = try store.sessions(connection)
            let timeZone = typed?.timeZone ?? account.timeZone
            let language = typed?.language ?? user.locale ?? "", scheme = typed?.colorScheme ?? user.colorScheme
            let retention = typed?.retention ?? account.desiredRetention
            let now = pages.clock()
            let measured = try store.measuredRetention(days: 30, now: now, connection)
            let providers = try SSOStore().providers(connection), linked = Set(try SSOStore().linkedIssuers(connection))
            var page = SettingsPage(
                username: account.username, displayName: typed?.displayName ?? account.displayName, timeZone: timeZone,
                timeZoneGroups: TimeZoneChoices.groups(selected: timeZone),
                showOnLeaderboard: typed?.showOnLeaderboard ?? account.showOnLeaderboard,
                languages: [SettingsPage.Language(
                    value: "", label: pages.message("account.language_auto", locale: locale), lang: nil, selected: language.isEmpty)]
                    + LocaleNegotiation.names.filter { pages.templates.locales.contains($0.code) }.map {
                        SettingsPage.Language(
                            value: $0.code, label: $0.name, lang: LocaleNegotiation.htmlLanguage($0.code), selected: language == $0.code)
                    },
                retentions: AccountStore.retentionChoices.map { choice in
                    SettingsPage.Retention(
                        value: Self.retentionText(choice), label: Percentages.format(choice, locale: locale),
                        selected: abs(retention - choice) < 0.001)
                },
                measuredRetention: measured.reviews == 0 ? nil : pages.message("account.measured_retention", locale: locale, [
                    "percent": String(Int((Double(measured.recalled) * 100 / Double(measured.reviews)).rounded())),
                    "count": String(measured.reviews),
                ]),
                sessions: sessions.map { session in
                    SettingsPage.Session(
                        id: session.id.lowercasedText, current: session.id == user.sessionID,
                        lastSeenAgo: pages.ago(session.lastSeenAt, locale: locale),
                        userAgent: session.userAgent.isEmpty ? "—" : String(session.userAgent.prefix(80)))
                },
                otherSessions: sessions.filter { $0.id != user.sessionID }.count,
                notice: noticeText ?? notice.map { pages.message($0, locale: locale) }, fieldErrors: fieldErrors)
            page.signIns = providers.map {
                SettingsPage.SignIn(label: $0.label, issuer: $0.issuer, linked: linked.contains($0.issuer), linkHref: "/auth/\($0.slug)?link=1")
            }
            page.hasSignIns = !providers.isEmpty
            page.schemes = ColorScheme.allCases.map {
                SettingsPage.Scheme(value: $0.rawValue, label: pages.message("account.scheme_\($0.rawValue)", locale: locale), selected: $0 == scheme)
            }
            page.boardAllowed = try ClassAccountStore().publicBoardAllowed(connection)
            if mailEnabled {
                let store = EmailAddressStore(), current = try store.current(connection)
                page.email = SettingsPage.Email(
                    madeByTeacher: try store.madeByTeacher(connection), current: current?.email,
                    since: current.map { LocalDates.day(LocalDates.day(of: $0.verifiedAt, zone: TimeZone(identifier: timeZone) ?? .gmt), locale: locale) },
                    typed: typedEmail ?? current?.email ?? "")
            }
            return page
        }
        return try pages.privatePage("me/settings", page, request, status: status)
    }

    /// `POST /me/settings`: the page's one form and its one Save — profile, language,
    /// appearance and schedule together, so no edit is dropped by another section's button. A
    /// field the form did not send stays as it is; a refused field is shown beside itself with
    /// every other edit kept, and nothing is saved until all are good; the confirmation names
    /// what changed.
    func saveSettings(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = FormFields(body: request.body)
        let store = AccountStore()
        guard let account = try request.database.run({ try store.settings($0) }) else {
            throw HTTPError(.notFound, pages.message("error.no_account", for: request))
        }
        var typed = TypedSettings()
        var errors: [String: String] = [:]
        if let text = form["display_name"] {
            let name = text.trimmingCharacters(in: .whitespaces)
            typed.displayName = String(name.prefix(200))
            if name.isEmpty || name.count > 80 { errors["display_name"] = pages.message("account.display_name_invalid", for: request) }
        }
        if let text = form["time_zone"] {
            let zone = TimeZoneChoices.resolve(text)
            if try zone.utf8.count <= 64 && request.database.run({ try store.isKnownTimeZone(zone, $0) }) {
                typed.timeZone = zone
            } else {
                errors["time_zone"] = pages.message("account.time_zone_invalid", for: request)
            }
        }
        // A checkbox sends nothing when it is off: the profile's fields say the form was the page's.
        if form["display_name"] != nil || form["show_on_leaderboard"] != nil { typed.showOnLeaderboard = form["show_on_leaderboard"] == "on" }
        if let chosen = form["language"] {
            if chosen.isEmpty || pages.templates.locales.contains(chosen) { typed.language = chosen }
            else { errors["language"] = pages.message("account.language_invalid", for: request) }
        }
        if let text = form["color_scheme"] {
            if let scheme = ColorScheme(rawValue: text) { typed.colorScheme = scheme }
            else { errors["color_scheme"] = pages.message("account.scheme_invalid", for: request) }
        }
        if let text = form["desired_retention"] {
            if let value = Double(text), let chosen = AccountStore.retentionChoices.first(where: { abs($0 - value) < 0.0001 }) { typed.retention = chosen }
            else { errors["desired_retention"] = pages.message("account.retention_invalid", for: request) }
        }
        guard errors.isEmpty else {
            return try showSettings(request, user, fieldErrors: errors, typed: typed, status: .unprocessableContent)
        }
        let changes = SettingsChanges(account: account, user: user, typed: typed)
        try request.database.transaction { connection in
            if changes.profile || (typed.timeZone != nil && !account.timeZoneConfirmed) {
                try store.updateSettings(
                    displayName: typed.displayName ?? account.displayName, timeZone: typed.timeZone ?? account.timeZone,
                    showOnLeaderboard: typed.showOnLeaderboard ?? account.showOnLeaderboard, connection)
            }
            if changes.names.contains("language"), let language = typed.language { try store.setLocale(language.isEmpty ? nil : language, connection) }
            if changes.names.contains("color_scheme"), let scheme = typed.colorScheme { try store.setColorScheme(scheme, connection) }
            // A new retention reschedules every card: only when it changed.
            if changes.names.contains("desired_retention"), let retention = typed.retention { try store.setDesiredRetention(retention, connection) }
        }
        if !changes.names.isEmpty { viewers.forget(userID: user.userID) }
        // The dashboard's question about the zone goes back to the dashboard, now in the student's day.
        let saved = changes.names.isEmpty ? "nothing" : changes.names.joined(separator: ",")
        var response = Response.redirect(to: form["return"] == "dashboard" ? "/me" : "/me/settings?saved=" + saved)
        if changes.names.contains("language"), let chosen = typed.language {
            response.setCookie(chosen.isEmpty
                ? SetCookie.expired(name: LocaleNegotiation.cookieName, secure: settings.secure)
                : SetCookie(name: LocaleNegotiation.cookieName, value: chosen, maxAge: LanguageSwitch.cookieLifetime, secure: settings.secure))
        }
        return response
    }

    /// A retention as the form carries it: 0.7, 0.93.
    static func retentionText(_ retention: Double) -> String { String(format: "%.2f", retention) }

    /// `POST /me/retention`, `/me/language`, `/me/appearance`: the addresses of the page's former
    /// separate forms (a tab opened before keeps working), each one setting of the one form.
    func saveRetention(_ request: PortalRequest, _ user: SessionUser) throws -> Response { try saveSettings(request, user) }

    func saveLanguage(_ request: PortalRequest, _ user: SessionUser) throws -> Response { try saveSettings(request, user) }

    func saveAppearance(_ request: PortalRequest, _ user: SessionUser) throws -> Response { try saveSettings(request, user) }

    func changePassword(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let form = FormFields(body: request.body)
        let current = form["current_password"] ?? "", new = form["new_password"] ?? ""
        let store = AccountStore()
        let username = try request.database.transaction { try store.settings($0)?.username ?? "" }
        if let problem = PasswordPolicy.problem(new, username: username) {
            return try showSettings(request, user, fieldErrors: ["new_password": pages.message(problem, for: request)], status: .unprocessableContent)
        }
        // Guessing the current password from a stolen session counts like guessing at sign-in.
        let reservation = try request.database.run { try store.beginLogin(username: username, address: request.clientAddress, $0) }
        guard case .attempt(let attempt, let salt, let memoryLimit, let passes) = reservation else {
            let seconds = if case .wait(let seconds) = reservation { seconds } else { 60 }
            let text = pages.message("account.throttled", for: request, ["minutes": String((seconds + 59) / 60)])
            return tooMany(try showSettings(request, user, fieldErrors: ["current_password": text], status: .tooManyRequests), wait: seconds)
        }
        let wrong = { try showSettings(request, user, fieldErrors: ["current_password": pages.message("account.current_password_wrong", for: request)], status: .unprocessableContent) }
        guard current.utf8.count <= PasswordPolicy.maximumBytes,
              let proof = try hashing.run({ Crypto.passwordProof(current, salt: salt, passes: passes, memoryLimit: memoryLimit) }),
              let newHash = try hashing.run({ Crypto.hashPassword(new) }) else {
            return try wrong()
        }
        // The database ends every session of the account; this browser gets a fresh one.
        let token = Crypto.token()
        guard try request.database.transaction({
            try store.changePassword(
                attempt: attempt, proof: proof, newHash: newHash, token: token, csrfToken: Crypto.token(),
                userAgent: request.headers["User-Agent"] ?? "", $0)
        }) else {
            return try wrong()
        }
        viewers.forget(userID: user.userID)
        var response = Response.redirect(to: "/me/settings?password=changed")
        try signedIn(token: token, request, &response)
        return response
    }

    func endOtherSessions(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        _ = try request.database.transaction { try AccountStore().endOtherSessions(keeping: user.sessionID, $0) }
        viewers.forget(userID: user.userID)
        return .redirect(to: "/me/settings?ended=1")
    }

    func endSession(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        let ended = try request.database.transaction { try AccountStore().endSession(id: id, $0) }
        guard ended else { throw HTTPError(.notFound, pages.message("error.no_session", for: request)) }
        viewers.forget(sessionID: id)
        if id == user.sessionID {
            var response = Response.redirect(to: "/")
            response.setCookie(SetCookie.expired(name: settings.cookieName, secure: settings.secure))
            return response
        }
        return .redirect(to: "/me/settings?ended=1")
    }
}

/// At most a few password hashes at once, so logins cannot be used to exhaust the machine.
final class HashLimiter: Sendable {
    private let semaphore: DispatchSemaphore

    init(concurrent: Int = 2) { semaphore = DispatchSemaphore(value: concurrent) }

    func run<Value>(_ work: () throws -> Value) throws -> Value {
        semaphore.wait()
        defer { semaphore.signal() }
        return try work()
    }
}
