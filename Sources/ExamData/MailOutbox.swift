import Foundation
import PostgresClient

/// A message as the portal words it, before the database chooses where it goes: its language,
/// subject and two bodies, which hold `{link}` where the sender puts a link the database made.
public struct MailDraft: Sendable, Equatable {
    /// Where a link goes in a body; the sender replaces it.
    public static let linkMark = "{link}"

    public var locale: String
    public var subject: String
    public var text: String
    public var html: String

    public init(locale: String, subject: String, text: String, html: String) {
        self.locale = locale
        self.subject = subject
        self.text = text
        self.html = html
    }
}

/// The outbox every message goes through (`mail_outbox`): queued only by the database's own
/// functions, taken by the sender in `portal auth-agent` (as portal_agent) for a short lease,
/// then marked sent or put back to try later; an admin sees how it stands.
public struct MailOutbox: Sendable {
    public init() {}

    /// A message due to be sent, with its link's token (the sender builds the link).
    public struct Due: Sendable, Equatable {
        public var id: UUID
        public var recipient: String
        public var recipientName: String
        public var locale: String
        public var subject: String
        public var text: String
        public var html: String
        /// The path the link's token goes after (`/reset/`), when the message has a link.
        public var linkPath: String?
        public var secret: String?
        public var attempts: Int
    }

    /// Takes up to `limit` due messages (nobody else takes them for two minutes).
    public func takeDue(limit: Int, _ connection: PostgresConnection) throws -> [Due] {
        try connection.query("""
            SELECT id, recipient, recipient_name, locale, subject, text_body, html_body, link_path, secret, attempts FROM mail_take_due(\(limit))
            """).rows.map {
            Due(
                id: try $0.decode("id", as: UUID.self), recipient: try $0.decode("recipient", as: String.self),
                recipientName: try $0.decode("recipient_name", as: String.self), locale: try $0.decode("locale", as: String.self),
                subject: try $0.decode("subject", as: String.self), text: try $0.decode("text_body", as: String.self),
                html: try $0.decode("html_body", as: String.self), linkPath: try $0.decode("link_path", as: String?.self),
                secret: try $0.decode("secret", as: String?.self), attempts: try $0.decode("attempts", as: Int.self))
        }
    }

    /// The server accepted the message: its token and bodies are erased.
    public func sent(_ id: UUID, _ connection: PostgresConnection) throws {
        try connection.execute("SELECT mail_sent(\(id))")
    }

    /// Puts the message back with the reason, or gives it up when `permanent`.
    public func failed(_ id: UUID, reason: String, permanent: Bool, _ connection: PostgresConnection) throws {
        try connection.execute("SELECT mail_failed(\(id), \(reason), \(permanent))")
    }

    /// How the outbox stands, for an admin's page.
    public struct Summary: Sendable, Equatable {
        public var waiting: Int
        public var sent: Int
        public var givenUp: Int
        public var oldestWaiting: Date?
        public var lastError: String?
        public var lastErrorAt: Date?
    }

    /// Nil for anyone but an admin.
    public func summary(_ connection: PostgresConnection) throws -> Summary? {
        guard let row = try connection.query("SELECT * FROM mail_outbox_summary()").first else { return nil }
        return Summary(
            waiting: try row.decode("waiting", as: Int.self), sent: try row.decode("sent", as: Int.self),
            givenUp: try row.decode("given_up", as: Int.self), oldestWaiting: try row.decode("oldest_waiting", as: Date?.self),
            lastError: try row.decode("last_error", as: String?.self), lastErrorAt: try row.decode("last_error_at", as: Date?.self))
    }
}
