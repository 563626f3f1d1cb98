import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// Whose study sessions a request works with: a signed-in student's, or a guest's, known
/// only by the hash of a random cookie. Guests practise without an account; nothing of theirs
/// reaches review cards, the dashboard or a leaderboard.
struct StudyActor: Sendable {
    var user: SessionUser?
    /// SHA-256 of the guest cookie's token.
    var guestKey: [UInt8]?
    /// A guest token just made, to set as a cookie on the response.
    var newGuestToken: String?

    var isGuest: Bool { user == nil }

    /// The actor behind a request; nil for a visitor without a guest cookie unless `createGuest`.
    static func resolve(_ request: Request, settings: SessionSettings, createGuest: Bool) -> StudyActor? {
        if let user = request.user { return StudyActor(user: user) }
        if let token = request.cookies[settings.guestCookieName], SessionSettings.isWellFormed(token) {
            return StudyActor(guestKey: Crypto.sha256(Array(token.utf8)))
        }
        guard createGuest else { return nil }
        let token = Crypto.token()
        return StudyActor(guestKey: Crypto.sha256(Array(token.utf8)), newGuestToken: token)
    }

    /// The transaction settings row-level security reads: `app.user_id` and `app.role` for a
    /// student, `app.guest_key` for a guest.
    var settings: [String: String] {
        [
            "app.user_id": user?.userID.uuidString.lowercased() ?? "",
            "app.role": user?.role ?? "",
            "app.guest_key": guestKey.map { $0.map { String(format: "%02x", $0) }.joined() } ?? "",
        ]
    }

    /// Runs `body` in one transaction scoped to this actor.
    func transaction<Value>(_ database: ConnectionPool, _ body: (PostgresConnection) throws -> Value) throws -> Value {
        try database.withTransaction(settings: settings, body)
    }
}
