import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// `/login`, `/register`, `/logout` and `/me/settings`.
struct AccountPages: Sendable {
    let database: ConnectionPool
    let pages: PageRenderer
    let settings: SessionSettings
    let throttle: LoginThrottle
    let hashing: HashLimiter
    let clock: @Sendable () -> Date

    struct FormPage: Encodable {
        var username = ""
        var displayName = ""
        var next = ""
        var error: String?
        var fieldErrors: [String: String] = [:]
    }

    func addRoutes(to router: inout Router) {
        router.get("/login") { request in try showLogin(request, FormPage(next: safeNext(request.query["next"]))) }
        router.post("/login") { request in try login(request) }
        router.get("/register") { request in try show("accounts/register", request, FormPage(next: safeNext(request.query["next"]))) }
        router.post("/register") { request in try register(request) }
        router.post("/logout") { request in try logout(request) }
        router.get("/me/settings") { request in
            let query = request.query
            let notice = query["saved"] != nil ? "account.saved" : query["password"] != nil ? "account.password_changed"
                : query["ended"] != nil ? "account.sessions_ended" : nil
            return try showSettings(request, notice: notice)
        }
        router.post("/me/settings") { request in try saveSettings(request) }
        router.post("/me/password") { request in try changePassword(request) }
        router.post("/me/sessions/end-others") { request in try endOtherSessions(request) }
        router.post("/me/sessions/:id/end") { request in try endSession(request) }
    }

    /// Where to go after signing in: a path on this site, or the home page.
    func safeNext(_ next: String?) -> String { LocalPath.validated(next) ?? "/" }

    private func show(_ template: String, _ request: Request, _ page: FormPage, status: HTTPStatus = .ok) throws -> Response {
        try pages.privatePage(template, page, request, status: status)
    }

    private func showLogin(_ request: Request, _ page: FormPage, status: HTTPStatus = .ok) throws -> Response {
        try show("accounts/login", request, page, status: status)
    }

    private func message(_ key: String, _ request: Request, _ arguments: [String: String] = [:]) -> String {
        pages.message(key, locale: pages.locale(for: request), arguments)
    }

    // MARK: Signing in and out

    func login(_ request: Request) throws -> Response {
        let form = FormFields(body: request.body)
        let username = (form["username"] ?? "").trimmingCharacters(in: .whitespaces)
        let password = form["password"] ?? ""
        let next = safeNext(form["next"])
        let keys = ["account:" + username.lowercased(), "address:" + request.remoteAddress]
        let now = clock()
        if let wait = throttle.retryAfter(keys, now: now) {
            var response = try showLogin(request, FormPage(username: username, next: next, error: message("account.throttled", request, ["minutes": String((wait + 59) / 60)])), status: .tooManyRequests)
            response.headers.add("Retry-After", String(wait))
            return response
        }
        // A password over 1 KiB is refused before any hashing (no account has one).
        let tooLong = password.utf8.count > PasswordPolicy.maximumBytes
        let candidate = tooLong ? nil : try database.withConnection { try AccountStore().loginCandidate(username: username, $0) }
        // An unknown account costs the same hash as a wrong password: same answer, same time.
        let verified = try !tooLong && hashing.run { Crypto.verifyPassword(password, hash: candidate?.passwordHash ?? HashLimiter.decoyHash) }
        guard let candidate, verified else {
            throttle.recordFailure(keys, now: now)
            return try showLogin(request, FormPage(username: username, next: next, error: message("account.login_failed", request)), status: .unauthorized)
        }
        throttle.clear(keys[0])
        var response = Response.redirect(to: next)
        try startSession(userID: candidate.id, request: request, response: &response)
        return response
    }

    /// A brand-new token for every sign-in: a cookie planted before is never promoted.
    private func startSession(userID: UUID, request: Request, response: inout Response) throws {
        let token = Crypto.token()
        try database.withConnection { connection in
            try AccountStore().createSession(
                userID: userID, tokenHash: Crypto.sha256(Array(token.utf8)), csrfToken: Crypto.token(), now: clock(),
                userAgent: request.headers["User-Agent"] ?? "", connection)
        }
        response.setCookie(settings.sessionCookie(token))
        // A guest who signs in or makes an account keeps what they practised in this browser.
        if let guest = request.cookies[settings.guestCookieName], SessionSettings.isWellFormed(guest) {
            try database.withTransaction(settings: ["app.user_id": userID.uuidString.lowercased(), "app.role": ""]) { connection in
                if try StudyStore().claimGuestSessions(guestKey: Crypto.sha256(Array(guest.utf8)), connection) > 0 {
                    _ = try ReviewCardStore().rebuild(connection)
                }
            }
            response.setCookie(SetCookie.expired(name: settings.guestCookieName, secure: settings.secure))
        }
    }

    func logout(_ request: Request) throws -> Response {
        if let user = request.user {
            try database.withRequestContext(userID: user.userID.uuidString, role: user.role) { connection in
                try AccountStore().endSession(id: user.sessionID, connection)
            }
        }
        var response = Response.redirect(to: "/")
        response.setCookie(SetCookie.expired(name: settings.cookieName, secure: settings.secure))
        return response
    }

    // MARK: Registering

    func register(_ request: Request) throws -> Response {
        let form = FormFields(body: request.body)
        var page = FormPage(
            username: (form["username"] ?? "").trimmingCharacters(in: .whitespaces),
            displayName: (form["display_name"] ?? "").trimmingCharacters(in: .whitespaces), next: safeNext(form["next"]))
        let password = form["password"] ?? ""
        if page.username.count < 3 || page.username.count > 40 || page.username.contains(where: { $0.isWhitespace || "/@:<>\"'".contains($0) }) {
            page.fieldErrors["username"] = message("account.username_invalid", request)
        }
        if page.displayName.isEmpty || page.displayName.count > 80 {
            page.fieldErrors["display_name"] = message("account.display_name_invalid", request)
        }
        if let problem = PasswordPolicy.problem(password, username: page.username) {
            page.fieldErrors["password"] = message(problem, request)
        } else if password != (form["password_confirmation"] ?? "") {
            page.fieldErrors["password_confirmation"] = message("account.password_mismatch", request)
        }
        guard page.fieldErrors.isEmpty else { return try show("accounts/register", request, page, status: .unprocessableContent) }
        guard let hash = try hashing.run({ Crypto.hashPassword(password) }) else {
            throw HTTPError(.internalServerError, "The password could not be hashed.")
        }
        guard let id = try database.withConnection({
            try AccountStore().register(username: page.username, displayName: page.displayName, passwordHash: hash, $0)
        }) else {
            page.fieldErrors["username"] = message("account.username_taken", request)
            return try show("accounts/register", request, page, status: .unprocessableContent)
        }
        var response = Response.redirect(to: page.next)
        try startSession(userID: id, request: request, response: &response)
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
        var username: String
        var displayName: String
        var timeZone: String
        var showOnLeaderboard: Bool
        var sessions: [Session]
        var otherSessions: Int
        var notice: String?
        var fieldErrors: [String: String] = [:]
    }

    private func signedIn(_ request: Request) throws -> SessionUser {
        guard let user = request.user else {
            throw HTTPError(.seeOther, "", headers: ["Location": "/login?next=" + request.path])
        }
        return user
    }

    @discardableResult
    private func asUser<Value>(_ user: SessionUser, _ body: (PostgresConnection) throws -> Value) throws -> Value {
        try database.withRequestContext(userID: user.userID.uuidString, role: user.role, body)
    }

    func showSettings(_ request: Request, notice: String? = nil, fieldErrors: [String: String] = [:], status: HTTPStatus = .ok) throws -> Response {
        let user = try signedIn(request)
        let locale = pages.locale(for: request)
        let page = try asUser(user) { connection -> SettingsPage in
            let store = AccountStore()
            guard let account = try store.settings(connection) else { throw HTTPError(.notFound, "There is no such account.") }
            let sessions = try store.sessions(connection)
            return SettingsPage(
                username: account.username, displayName: account.displayName, timeZone: account.timeZone,
                showOnLeaderboard: account.showOnLeaderboard,
                sessions: sessions.map { session in
                    SettingsPage.Session(
                        id: session.id.uuidString.lowercased(), current: session.id == user.sessionID,
                        lastSeenAgo: pages.ago(session.lastSeenAt, locale: locale),
                        userAgent: session.userAgent.isEmpty ? "—" : String(session.userAgent.prefix(80)))
                },
                otherSessions: sessions.filter { $0.id != user.sessionID }.count,
                notice: notice.map { pages.message($0, locale: locale) }, fieldErrors: fieldErrors)
        }
        return try pages.privatePage("me/settings", page, request, status: status)
    }

    func saveSettings(_ request: Request) throws -> Response {
        let user = try signedIn(request)
        let form = FormFields(body: request.body)
        let displayName = (form["display_name"] ?? "").trimmingCharacters(in: .whitespaces)
        let timeZone = form["time_zone"] ?? "UTC"
        var errors: [String: String] = [:]
        if displayName.isEmpty || displayName.count > 80 { errors["display_name"] = message("account.display_name_invalid", request) }
        let known = try asUser(user) { try AccountStore().isKnownTimeZone(timeZone, $0) }
        if !known { errors["time_zone"] = message("account.time_zone_invalid", request) }
        guard errors.isEmpty else { return try showSettings(request, fieldErrors: errors, status: .unprocessableContent) }
        try asUser(user) { connection in
            try AccountStore().updateSettings(displayName: displayName, timeZone: timeZone, showOnLeaderboard: form["show_on_leaderboard"] == "on", connection)
        }
        return .redirect(to: "/me/settings?saved=1")
    }

    func changePassword(_ request: Request) throws -> Response {
        let user = try signedIn(request)
        let form = FormFields(body: request.body)
        let current = form["current_password"] ?? "", new = form["new_password"] ?? ""
        let (hash, username) = try asUser(user) { connection in
            (try AccountStore().passwordHash(connection) ?? "", try AccountStore().settings(connection)?.username ?? "")
        }
        guard current.utf8.count <= PasswordPolicy.maximumBytes, try hashing.run({ Crypto.verifyPassword(current, hash: hash) }) else {
            return try showSettings(request, fieldErrors: ["current_password": message("account.current_password_wrong", request)], status: .unprocessableContent)
        }
        if let problem = PasswordPolicy.problem(new, username: username) {
            return try showSettings(request, fieldErrors: ["new_password": message(problem, request)], status: .unprocessableContent)
        }
        guard let newHash = try hashing.run({ Crypto.hashPassword(new) }) else {
            throw HTTPError(.internalServerError, "The password could not be hashed.")
        }
        // The database ends every session of the account; this browser gets a fresh one.
        try asUser(user) { try AccountStore().changePassword(newHash: newHash, $0) }
        var response = Response.redirect(to: "/me/settings?password=changed")
        try startSession(userID: user.userID, request: request, response: &response)
        return response
    }

    func endOtherSessions(_ request: Request) throws -> Response {
        let user = try signedIn(request)
        try asUser(user) { try AccountStore().endOtherSessions(keeping: user.sessionID, $0) }
        return .redirect(to: "/me/settings?ended=1")
    }

    func endSession(_ request: Request) throws -> Response {
        let user = try signedIn(request)
        guard let id = UUID(uuidString: request.parameter("id")) else { throw HTTPError(.notFound, "There is no such session.") }
        let ended = try asUser(user) { try AccountStore().endSession(id: id, $0) }
        guard ended else { throw HTTPError(.notFound, "There is no such session.") }
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

    /// A real Argon2id hash of a random password: what an unknown account is checked against.
    static let decoyHash: String = Crypto.hashPassword(Crypto.token()) ?? ""

    func run<Value>(_ work: () throws -> Value) throws -> Value {
        semaphore.wait()
        defer { semaphore.signal() }
        return try work()
    }
}
