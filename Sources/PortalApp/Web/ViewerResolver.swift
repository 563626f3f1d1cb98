import ExamData
import Foundation
import HTTPServer

/// Who is asking: the session cookie's reader as the database (or the last few seconds'
/// resolutions) knows them, the guest's and the visitor's tokens, set on the request's database
/// connection for row-level security to read.
struct ViewerResolver {
    let settings: SessionSettings
    let clock: @Sendable () -> Date
    /// Sessions resolved in the last few seconds (served only while the database's notices arrive).
    let viewers: ViewerCache

    /// A malformed, short, huge or unknown cookie is simply no session, never an error.
    /// A visitor without a CSRF cookie gets one only where `issueVisitorToken` (pages with
    /// forms for visitors), so shared public pages stay free of Set-Cookie and of the work.
    func viewer(_ request: Request, database: RequestDatabase, issueVisitorToken: Bool) throws -> Viewer {
        let cookies = request.cookies
        if let guest = cookies[settings.guestCookieName], SessionSettings.isWellFormed(guest) {
            database.use(guestToken: guest)
        }
        if let token = cookies[settings.cookieName], SessionSettings.isWellFormed(token), let user = try sessionUser(token, database) {
            database.use(sessionToken: token)
            database.use(guestToken: nil)
            return Viewer(user: user, csrfToken: user.csrfToken)
        }
        if let token = cookies[settings.csrfCookieName], SessionSettings.isWellFormed(token) {
            return Viewer(user: nil, csrfToken: token)
        }
        guard issueVisitorToken else { return Viewer(user: nil, csrfToken: "") }
        let fresh = Crypto.token()
        return Viewer(user: nil, csrfToken: fresh, newCSRFCookie: fresh)
    }

    /// The session a cookie token names: from the last few seconds' resolutions, or from the
    /// database (which keeps its last use current and ends it when idle or too old).
    private func sessionUser(_ token: String, _ database: RequestDatabase) throws -> SessionUser? {
        let now = clock()
        if let user = viewers.user(token: token, now: now) { return user }
        let generation = viewers.generation()
        guard let user = try AccountStore().sessionUser(
            token: token, now: now, idle: settings.idleTimeout, absolute: settings.absoluteLifetime, database.checkedOutConnection()) else { return nil }
        if let generation { viewers.keep(token: token, user: user, resolvedAt: now, generation: generation) }
        return user
    }
}
