import ExamData
import Foundation
import HTTPServer
import Identifiers
import QuestionEngine

/// `/me/settings` and what its forms save: profile, retention, language, appearance, the
/// password and the account's other sessions.
extension AccountPages {
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
        /// The readings over words (ruby) are hidden on the reader's pages.
        var hidesReadings = false
        /// The reader's own read-aloud setting (an accommodation may turn it on besides).
        var readsAloud = false
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
        var hidesReadings: Bool?
        var readsAloud: Bool?
        var retention: Double?
    }

    func showSettings(
        _ request: PortalRequest, _ user: SessionUser, notice: String? = nil, noticeText: String? = nil, fieldErrors: [String: String] = [:],
        typed: TypedSettings? = nil, typedEmail: String? = nil, status: HTTPStatus = .ok
    ) throws -> Response {
        let locale = pages.locale(for: request)
        guard let read = try SettingsReading(request.database.read(SettingsReading.statements(now: pages.clock()))) else {
            throw PageRefusal(.notFound, "error.no_account")
        }
        let account = read.account
        let timeZone = typed?.timeZone ?? account.timeZone
        let language = typed?.language ?? user.locale ?? "", scheme = typed?.colorScheme ?? user.colorScheme
        let retention = typed?.retention ?? account.desiredRetention
        var page = SettingsPage(
            username: account.username, displayName: typed?.displayName ?? account.displayName, timeZone: timeZone,
            timeZoneGroups: TimeZoneChoices.groups(selected: timeZone),
            showOnLeaderboard: typed?.showOnLeaderboard ?? account.showOnLeaderboard,
            languages: languages(selected: language, locale: locale),
            retentions: AccountStore.retentionChoices.map { choice in
                SettingsPage.Retention(
                    value: Self.retentionText(choice), label: Percentages.format(choice, locale: locale), selected: abs(retention - choice) < 0.001)
            },
            measuredRetention: read.measured.reviews == 0 ? nil : pages.message("account.measured_retention", locale: locale, [
                "percent": String(Int((Double(read.measured.recalled) * 100 / Double(read.measured.reviews)).rounded())),
                "count": String(read.measured.reviews),
            ]),
            sessions: read.sessions.map { session in
                SettingsPage.Session(
                    id: session.id.lowercasedText, current: session.id == user.sessionID, lastSeenAgo: pages.ago(session.lastSeenAt, locale: locale),
                    userAgent: session.userAgent.isEmpty ? "—" : String(session.userAgent.prefix(80)))
            },
            otherSessions: read.sessions.filter { $0.id != user.sessionID }.count,
            notice: noticeText ?? notice.map { pages.message($0, locale: locale) }, fieldErrors: fieldErrors)
        page.signIns = read.providers.map {
            SettingsPage.SignIn(label: $0.label, issuer: $0.issuer, linked: read.linkedIssuers.contains($0.issuer), linkHref: "/auth/\($0.slug)?link=1")
        }
        page.hasSignIns = !read.providers.isEmpty
        page.schemes = ColorScheme.allCases.map {
            SettingsPage.Scheme(value: $0.rawValue, label: pages.message("account.scheme_\($0.rawValue)", locale: locale), selected: $0 == scheme)
        }
        page.hidesReadings = typed?.hidesReadings ?? user.hidesReadings
        page.readsAloud = typed?.readsAloud ?? account.readsAloud
        page.boardAllowed = read.publicBoardAllowed
        if mailEnabled {
            page.email = SettingsPage.Email(
                madeByTeacher: read.madeByTeacher, current: read.email?.email,
                since: read.email.map { LocalDates.day(LocalDates.day(of: $0.verifiedAt, zone: TimeZone(identifier: timeZone) ?? .gmt), locale: locale) },
                typed: typedEmail ?? read.email?.email ?? "")
        }
        return try pages.privatePage("me/settings", page, request, status: status)
    }

    /// The languages the page offers: "follow my browser", then each the portal speaks.
    private func languages(selected language: String, locale: String) -> [SettingsPage.Language] {
        [SettingsPage.Language(value: "", label: pages.message("account.language_auto", locale: locale), lang: nil, selected: language.isEmpty)]
            + LocaleNegotiation.names.filter { pages.templates.locales.contains($0.code) }.map {
                SettingsPage.Language(value: $0.code, label: $0.name, lang: LocaleNegotiation.htmlLanguage($0.code), selected: language == $0.code)
            }
    }

    /// `POST /me/settings`: the page's one form and its one Save — profile, language,
    /// appearance and schedule together, so no edit is dropped by another section's button. A
    /// field the form did not send stays as it is; a refused field is shown beside itself with
    /// every other edit kept, and nothing is saved until all are good; the confirmation names
    /// what changed.
    func saveSettings(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        var form = try request.form(SettingsForm.self)
        let store = AccountStore()
        guard let account = try request.database.run({ try store.settings($0) }) else {
            throw PageRefusal(.notFound, "error.no_account")
        }
        if let zone = form.timeZone { form.check(timeZone: try zone.utf8.count <= 64 && request.database.run { try store.isKnownTimeZone(zone, $0) }) }
        form.check(languages: Set(pages.templates.locales))
        let typed = form.typed
        guard form.problems.isEmpty else {
            let errors = pages.fieldErrors(form.problems, locale: pages.locale(for: request))
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
            if changes.names.contains("hides_readings"), let hides = typed.hidesReadings { try store.setHidesReadings(hides, connection) }
            if changes.names.contains("reads_aloud"), let reads = typed.readsAloud { try store.setReadsAloud(reads, connection) }
            // A new retention reschedules every card: only when it changed.
            if changes.names.contains("desired_retention"), let retention = typed.retention { try store.setDesiredRetention(retention, connection) }
        }
        if !changes.names.isEmpty { viewers.forget(userID: user.userID) }
        // The dashboard's question about the zone goes back to the dashboard, now in the student's day.
        let saved = changes.names.isEmpty ? "nothing" : changes.names.joined(separator: ",")
        var response = Response.redirect(to: form.returnsToDashboard ? "/me" : "/me/settings?saved=" + saved)
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
        let form = try request.form(PasswordChangeForm.self)
        let (current, new) = (form.current, form.new)
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
        guard ended else { throw PageRefusal(.notFound, "error.no_session") }
        viewers.forget(sessionID: id)
        if id == user.sessionID {
            var response = Response.redirect(to: "/")
            response.setCookie(SetCookie.expired(name: settings.cookieName, secure: settings.secure))
            return response
        }
        return .redirect(to: "/me/settings?ended=1")
    }
}
