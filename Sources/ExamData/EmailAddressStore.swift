import Foundation
import PostgresClient

/// What asking to use an address came to (`auth_request_email`).
public enum EmailRequest: String, Sendable, Equatable {
    /// The link is on its way to the address.
    case sent
    /// It is already the account's verified address.
    case same
    /// Too many asked for this hour.
    case limited
    /// Not an address.
    case invalid
    /// The account was made by a teacher, and so holds no e-mail.
    case teacherMade = "teacher-made"
    /// Nobody is signed in.
    case unknown
}

/// What opening an address's link came to (`auth_verify_email`).
public enum EmailVerification: String, Sendable, Equatable {
    case verified
    /// Another account verified the address first.
    case taken
    /// The link was used, replaced or is more than a day old.
    case expired
}

/// An account's e-mail address: optional, kept only once a link sent to it was opened, read by
/// its owner and admins alone. The database makes every link's token and chooses every
/// recipient; the portal only words the messages (`MailDraft`).
public struct EmailAddressStore: Sendable {
    public init() {}

    /// The signed-in account's verified address and since when, if any.
    public func current(_ connection: PostgresConnection) throws -> (email: String, verifiedAt: Date)? {
        try Self.current(connection.query(Self.currentStatement))
    }

    /// `current` as one statement of a pipelined read.
    static let currentStatement: SQL = ("SELECT email, verified_at FROM user_emails WHERE user_id = app_user_id()" as SQL).prepared()

    /// What `currentStatement` returned.
    static func current(_ result: QueryResult) throws -> (email: String, verifiedAt: Date)? {
        guard let row = result.first else { return nil }
        return (try row.decode("email", as: String.self), try row.decode("verified_at", as: Date.self))
    }

    /// Sends a link to `email` for the signed-in account; nothing changes until it is opened.
    public func request(_ email: String, message: MailDraft, _ connection: PostgresConnection) throws -> EmailRequest {
        let answer = try connection.query("""
            SELECT auth_request_email(\(email), \(message.locale), \(message.subject), \(message.text), \(message.html)) AS outcome
            """).first?.decode("outcome", as: String.self)
        return answer.flatMap(EmailRequest.init(rawValue:)) ?? .unknown
    }

    /// Opens a link: the address becomes its account's; the one it replaces gets `notice`.
    public func verify(token: String, notice: MailDraft, _ connection: PostgresConnection) throws -> EmailVerification {
        let answer = try connection.query("""
            SELECT auth_verify_email(\(token), \(notice.locale), \(notice.subject), \(notice.text), \(notice.html)) AS outcome
            """).first?.decode("outcome", as: String.self)
        return answer.flatMap(EmailVerification.init(rawValue:)) ?? .expired
    }

    /// Erases the signed-in account's address, which gets `notice`; whether there was one.
    public func remove(notice: MailDraft, _ connection: PostgresConnection) throws -> Bool {
        try connection.query("""
            SELECT auth_remove_email(\(notice.locale), \(notice.subject), \(notice.text), \(notice.html)) AS removed
            """).first?.decode("removed", as: Bool.self) ?? false
    }
}
