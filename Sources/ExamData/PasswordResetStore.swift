import Foundation
import PostgresClient

/// What issuing a reset code came to (`auth_issue_reset`).
public enum ResetIssue: String, Sendable, Equatable {
    /// The code is live for a day; the caller shows it once.
    case issued
    /// The account signs in with its school (single sign-on or an LMS): it has no password.
    case external
    /// The teacher issued as many codes today as a day allows.
    case limited
    /// No such account, or not one the caller may reset (the same answer).
    case unknown
}

/// What taking a reset code came to (`auth_reset_password`).
public enum ResetOutcome: Sendable, Equatable {
    /// The password is set and the session of the caller's token has begun.
    case reset(userID: UUID)
    /// The username and code do not make a live code (whichever is wrong: the same answer).
    case refused
    /// Too many tries from this address or for this username: wait this long.
    case wait(seconds: Int)
}

/// One-time codes for a forgotten password, issued by a teacher or an admin and taken with the
/// account's username. The database decides both: portal_app can neither mint nor read a code.
public struct PasswordResetStore: Sendable {
    public init() {}

    /// Issues a code for `userID`, of which only the hash arrives (the caller shows the code
    /// once): for an admin, or a teacher of a class the student is in now; audited.
    public func issue(userID: UUID, codeHash: [UInt8], _ connection: PostgresConnection) throws -> ResetIssue {
        let answer = try connection.query("SELECT auth_issue_reset(\(userID), \(PostgresBytes(codeHash))) AS outcome").first?
            .decode("outcome", as: String.self)
        return answer.flatMap(ResetIssue.init(rawValue:)) ?? .unknown
    }

    /// Sets a new password (its hash) with a live code for the username; on success the
    /// session of `token` exists, every other session of the account has ended, and the code
    /// is spent. Attempts count per address and per username before anything is looked up.
    public func reset(
        username: String, codeHash: [UInt8], newHash: String, token: String, csrfToken: String, userAgent: String, address: String,
        _ connection: PostgresConnection
    ) throws -> ResetOutcome {
        guard let row = try connection.query("""
            SELECT user_id, retry_after FROM auth_reset_password(
                \(username), \(PostgresBytes(codeHash)), \(newHash), \(token), \(csrfToken), \(userAgent), \(address))
            """).first else { return .refused }
        if let id = try row.decode("user_id", as: UUID?.self) { return .reset(userID: id) }
        let wait = try row.decode("retry_after", as: Int.self)
        return wait > 0 ? .wait(seconds: wait) : .refused
    }

    /// How long to wait before a reset for `username` may be tried from `address`, 0 when it
    /// may (nothing is counted): asked before the new password is hashed, so a flood of tries
    /// costs no hashing.
    public func wait(address: String, username: String, _ connection: PostgresConnection) throws -> Int {
        try connection.query("SELECT auth_reset_wait(\(address), \(username), false) AS wait").first?.decode("wait", as: Int.self) ?? 0
    }

    /// The account a code would be for, as the caller may see it (row-level security: an admin
    /// sees every account, a teacher the students of their classes); nil otherwise.
    public func holder(userID: UUID, _ connection: PostgresConnection) throws -> (username: String, displayName: String)? {
        guard let row = try connection.query("SELECT username, display_name FROM users WHERE id = \(userID)").first else { return nil }
        return (try row.decode("username", as: String.self), try row.decode("display_name", as: String.self))
    }
}

/// Recovery by a link sent to the account's verified address: the database makes the token,
/// chooses the address and keeps only the token's hash; the portal words the message.
extension PasswordResetStore {
    /// Sends a link when `login` names an account (by username or verified address) that has
    /// one; the answer is the same either way. Seconds to wait when this client asked too often.
    public func requestByMail(login: String, address: String, message: MailDraft, _ connection: PostgresConnection) throws -> Int {
        try connection.query("""
            SELECT auth_request_reset_mail(\(login), \(address), \(message.locale), \(message.subject), \(message.text), \(message.html)) AS wait
            """).first?.decode("wait", as: Int.self) ?? 0
    }

    /// Whether a link's token may still set a password.
    public func linkIsLive(_ token: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT auth_reset_link_live(\(token)) AS live").first?.decode("live", as: Bool.self) ?? false
    }

    /// Sets a new password (its hash) with a live link's token; on success the session of
    /// `sessionToken` exists and every other session of the account has ended.
    public func resetByLink(
        token: String, newHash: String, sessionToken: String, csrfToken: String, userAgent: String, _ connection: PostgresConnection
    ) throws -> UUID? {
        try connection.query("""
            SELECT auth_reset_by_link(\(token), \(newHash), \(sessionToken), \(csrfToken), \(userAgent)) AS user_id
            """).first?.decode("user_id", as: UUID?.self)
    }
}
