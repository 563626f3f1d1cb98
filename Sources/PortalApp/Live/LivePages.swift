import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine

/// Live events: the host creates and starts one, students join with the code (as themselves
/// or with a nickname), the server drives the clock and keeps the score, and the results land
/// in PostgreSQL when the last question closes. Hosting is `LiveHostPages`, taking part
/// `LivePlayerPages`; what both use is here.
struct LivePages: Sendable {
    let database: ConnectionPool
    let pages: PageRenderer
    let settings: SessionSettings
    let clock: @Sendable () -> Date
    let scoreboard: LiveScoreboard?
    let hub: LiveHub
    let site: SiteAddress
    /// Live requests may wait on Redis: at most this many at once, never every worker.
    let bulkhead: Bulkhead

    /// Seconds between "Start" and the first question: time to look up at the screen.
    static let getReadySeconds = 5
    /// Unknown codes tried per client address in ten minutes before it must wait: codes are
    /// short enough to read aloud, so guessing them is limited.
    static let codeMissesPerTenMinutes = 30

    /// Redis is out of reach: live events say so, in words (the generic 503 page speaks of
    /// the database).
    struct Unavailable: Error {}

    /// Runs a page that needs Redis within the live events' share of the workers; Redis out of
    /// reach is said in words.
    func explained(_ request: PortalRequest, _ page: () throws -> Response) throws -> Response {
        do {
            return try bulkhead.run(page)
        } catch is Unavailable {
            return Self.unavailable(request, pages: pages)
        }
    }

    private static func unavailable(_ request: PortalRequest, pages: PageRenderer) -> Response {
        let locale = pages.locale(for: request)
        var response = pages.explainedErrorPage(status: .serviceUnavailable, message: pages.message("live.unavailable", locale: locale), locale: locale)
        response.headers.add("Retry-After", "30")
        return response
    }

    // MARK: Shared

    /// Live events need Redis; without it they say so, and the rest of the portal carries on.
    func liveScoreboard(_ request: PortalRequest) throws -> LiveScoreboard {
        guard let scoreboard, scoreboard.redis.ping() else { throw Unavailable() }
        return scoreboard
    }

    /// A board Redis lost is put back from the stored answers before anyone reads or adds to it.
    func restoreBoard(_ event: LiveEvent, _ scoreboard: LiveScoreboard, _ request: PortalRequest) {
        _ = try? scoreboard.restoreIfLost(code: event.code) {
            try request.database.run { try LiveStore().board(eventID: event.id, $0) }
        }
    }

    func noEvent(_ request: PortalRequest, _ code: String) -> PageRefusal {
        PageRefusal(.notFound, "live.no_event", ["code": String(code.uppercased().prefix(12))])
    }

    /// The event and, in one transaction scoped to the caller, whatever `body` reads. Unknown
    /// codes count against the client's address, shared by every instance.
    func withEvent<Value>(_ request: PortalRequest, _ code: String, _ body: (LiveEvent, PostgresConnection) throws -> Value) throws -> Value {
        let limits = CodeGuessLimit(bucket: "live-code", limit: Self.codeMissesPerTenMinutes, pages: pages)
        try limits.check(request)
        let found = try request.database.transaction { connection -> Value? in
            guard let event = try LiveStore().event(code: code.uppercased(), connection) else { return nil }
            return try body(event, connection)
        }
        if let found { return found }
        try limits.miss(request)
        throw noEvent(request, code)
    }

    func hostOnly(_ request: PortalRequest, _ event: LiveEvent, _ code: String) throws -> SessionUser {
        guard let user = request.user, user.userID == event.hostID || user.role == .admin else { throw noEvent(request, code) }
        return user
    }

    /// Writes the results of an event whose last question has closed, once (whichever instance
    /// or request gets there first): the database computes them from the stored answers. True
    /// when they are written (now, or before).
    @discardableResult
    static func finish(_ event: LiveEvent, database: ConnectionPool) -> Bool {
        do {
            return try database.withConnection { connection in
                let store = LiveStore()
                return try store.finish(eventID: event.id, connection) || store.event(code: event.code, connection)?.endedAt != nil
            }
        } catch {
            FileHandle.standardError.write(Data("live: writing the results of \(event.code) failed: \(error)\n".utf8))
            return false
        }
    }
}
