import Foundation
import PostgresClient

/// Reminders by e-mail: who is due one now (taken by the sender, portal_agent, which words
/// each in the student's language and queues it), and the link in each that turns them off
/// without signing in. The database chooses the students, the address and the token.
public struct MailDigests: Sendable {
    public init() {}

    /// How often a student is reminded.
    public enum Frequency: String, Sendable, CaseIterable {
        case off, daily, weekly
    }

    /// A student due a reminder now.
    public struct Due: Sendable, Equatable {
        public var userID: UUID
        public var locale: String
        public var displayName: String
        public var weekly: Bool
        /// Reviews due by the end of today (of the coming week for a weekly reminder).
        public var reviews: Int
        /// Their typical time over an answer.
        public var secondsPerReview: Int
    }

    /// The students due a reminder now, each marked as reminded today (portal_agent).
    public func take(limit: Int, _ connection: PostgresConnection) throws -> [Due] {
        try connection.query(("""
            SELECT user_id, locale, display_name, weekly, due, seconds FROM mail_digests_take(\(limit))
            """ as SQL).prepared()).rows.map { row in
            Due(
                userID: try row.decode("user_id", as: UUID.self), locale: try row.decode("locale", as: String.self),
                displayName: try row.decode("display_name", as: String.self), weekly: try row.decode("weekly", as: Bool.self),
                reviews: try row.decode("due", as: Int.self), secondsPerReview: try row.decode("seconds", as: Int.self))
        }
    }

    /// Queues `draft` to `student`'s verified address (portal_agent); false when they turned
    /// reminders off or have no address any more.
    public func queue(_ draft: MailDraft, to student: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("""
            SELECT mail_digest_queue(\(student), \(draft.locale), \(draft.subject), \(draft.text), \(draft.html)) AS queued
            """ as SQL).prepared()).single().decode("queued", as: Bool?.self) ?? false
    }

    /// Turns off the reminders of the student whose message carried `token`; false for a
    /// token that is no message's.
    public func unsubscribe(token: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("SELECT mail_unsubscribe(\(token)) AS done" as SQL).prepared()).first?.decode("done", as: Bool?.self) ?? false
    }

    /// How often the signed-in student is reminded.
    public func frequency(_ connection: PostgresConnection) throws -> Frequency {
        let text = try connection.query(("SELECT digest FROM users WHERE id = (SELECT app_user_id())" as SQL).prepared()).first?
            .decode("digest", as: String.self)
        return text.flatMap(Frequency.init(rawValue:)) ?? .off
    }

    /// Sets how often the signed-in student is reminded.
    public func setFrequency(_ frequency: Frequency, _ connection: PostgresConnection) throws {
        try connection.execute(("UPDATE users SET digest = \(frequency.rawValue) WHERE id = (SELECT app_user_id())" as SQL).prepared())
    }
}
