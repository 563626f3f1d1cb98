import Foundation
import PostgresClient

/// The scores of finished graded sessions on their way to the platforms (`lti_score_outbox`):
/// taken by a sender for a short lease, then marked sent or put back to try later.
public struct LTIScoreOutbox: Sendable {
    public init() {}

    /// A score due to be sent.
    public struct DueScore: Sendable, Equatable {
        public var sessionID: UUID
        public var platformID: Int
        public var clientID: String
        public var tokenURL: String
        public var lineItemURL: String
        public var subject: String
        public var scoreGiven: Double
        public var scoreMaximum: Double
        public var finishedAt: Date
        public var attempts: Int
    }

    /// Takes up to `limit` due scores (nobody else takes them for two minutes).
    public func takeDue(limit: Int, _ connection: PostgresConnection) throws -> [DueScore] {
        try connection.query(("""
            SELECT session_id, platform_id, client_id, token_url, lineitem_url, subject, score_given::float8 AS score_given,
                   score_maximum::float8 AS score_maximum, finished_at, attempts
            FROM lti_take_due_scores(\(limit))
            """ as SQL).prepared()).rows.map {
            DueScore(
                sessionID: try $0.decode("session_id", as: UUID.self), platformID: try $0.decode("platform_id", as: Int.self),
                clientID: try $0.decode("client_id", as: String.self), tokenURL: try $0.decode("token_url", as: String.self),
                lineItemURL: try $0.decode("lineitem_url", as: String.self), subject: try $0.decode("subject", as: String.self),
                scoreGiven: try $0.decode("score_given", as: Double.self), scoreMaximum: try $0.decode("score_maximum", as: Double.self),
                finishedAt: try $0.decode("finished_at", as: Date.self), attempts: try $0.decode("attempts", as: Int.self))
        }
    }

    public func sent(sessionID: UUID, _ connection: PostgresConnection) throws {
        try connection.execute(("SELECT lti_score_sent(\(sessionID))" as SQL).prepared())
    }

    /// Puts the score back with the reason, to try again after a growing wait.
    public func failed(sessionID: UUID, reason: String, _ connection: PostgresConnection) throws {
        try connection.execute(("SELECT lti_score_failed(\(sessionID), \(reason))" as SQL).prepared())
    }

    /// How the outbox stands (the admin's page): waiting, sent, and the latest failure.
    public func summary(_ connection: PostgresConnection) throws -> (waiting: Int, sent: Int, lastError: String?) {
        let row = try connection.query("""
            SELECT count(*) FILTER (WHERE sent_at IS NULL) AS waiting, count(*) FILTER (WHERE sent_at IS NOT NULL) AS sent,
                   (SELECT last_error FROM lti_score_outbox WHERE sent_at IS NULL AND last_error IS NOT NULL ORDER BY next_attempt_at DESC LIMIT 1) AS last_error
            FROM lti_score_outbox
            """).single()
        return (try row.decode("waiting", as: Int.self), try row.decode("sent", as: Int.self), try row.decode("last_error", as: String?.self))
    }
}
