import Foundation
import PostgresClient

/// The signed-in user behind a session cookie.
public struct SessionUser: Sendable, Equatable {
    public var sessionID: UUID
    public var userID: UUID
    public var role: String
    public var displayName: String
    public var csrfToken: String
    public var locale: String
    public var timeZone: String
}

/// An account's own settings, as the settings page shows them.
public struct AccountSettings: Sendable, Equatable {
    public var username: String
    public var displayName: String
    public var timeZone: String
    public var showOnLeaderboard: Bool
}

/// One of the user's sessions, for "end my other sessions".
public struct SessionSummary: Sendable, Equatable {
    public var id: UUID
    public var createdAt: Date
    public var lastSeenAt: Date
    public var userAgent: String
}

/// Accounts and sessions. Before sign-in the database functions do the work (they see only
/// what they return); after it, plain statements run under row-level security as the user.
public struct AccountStore: Sendable {
    public init() {}

    /// Registers a student; nil when the username is taken (case-insensitively).
    public func register(username: String, displayName: String, passwordHash: String, _ connection: PostgresConnection) throws -> UUID? {
        do {
            return try connection.query("SELECT auth_register(\(username), \(displayName), \(passwordHash)) AS id").first?.decode("id", as: UUID.self)
        } catch let error as PostgresError where error.isUniqueViolation {
            return nil
        }
    }

    /// Creates or resets an account with a role (the command line's `create-admin`).
    public func createUser(username: String, displayName: String, passwordHash: String, role: String, _ connection: PostgresConnection) throws -> UUID {
        try connection.query("SELECT auth_create_user(\(username), \(displayName), \(passwordHash), \(role)) AS id").first!.decode("id", as: UUID.self)
    }

    /// The account id and password hash for a username, if such an enabled account exists.
    public func loginCandidate(username: String, _ connection: PostgresConnection) throws -> (id: UUID, passwordHash: String)? {
        guard let row = try connection.query("SELECT id, password_hash, disabled FROM auth_find_login(\(username))").first,
              try !row.decode("disabled", as: Bool.self) else { return nil }
        return (try row.decode("id", as: UUID.self), try row.decode("password_hash", as: String.self))
    }

    /// Stores a new session by its token's hash.
    public func createSession(userID: UUID, tokenHash: [UInt8], csrfToken: String, now: Date, userAgent: String, _ connection: PostgresConnection) throws {
        try connection.execute("""
            SELECT auth_create_session(\(userID), decode(\(Self.hex(tokenHash)), 'hex'), \(csrfToken), \(now), \(userAgent))
            """)
    }

    /// The user of a live session, or nil (unknown, expired or disabled: expired ones are removed).
    public func sessionUser(tokenHash: [UInt8], now: Date, idle: TimeInterval, absolute: TimeInterval, _ connection: PostgresConnection) throws -> SessionUser? {
        guard let row = try connection.query(("""
            SELECT session_id, user_id, role, display_name, csrf_token, locale, time_zone
            FROM auth_lookup_session(decode(\(Self.hex(tokenHash)), 'hex'), \(now), make_interval(secs => \(idle)), make_interval(secs => \(absolute)))
            """ as SQL).prepared()).first else { return nil }
        return SessionUser(
            sessionID: try row.decode("session_id", as: UUID.self), userID: try row.decode("user_id", as: UUID.self),
            role: try row.decode("role", as: String.self), displayName: try row.decode("display_name", as: String.self),
            csrfToken: try row.decode("csrf_token", as: String.self), locale: try row.decode("locale", as: String.self),
            timeZone: try row.decode("time_zone", as: String.self))
    }

    /// Ends one session of the signed-in user (row-level security limits it to their own).
    @discardableResult
    public func endSession(id: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute("DELETE FROM auth_sessions WHERE id = \(id)") == 1
    }

    /// Ends every session of the signed-in user except `keeping`.
    @discardableResult
    public func endOtherSessions(keeping: UUID, _ connection: PostgresConnection) throws -> Int {
        try connection.execute("DELETE FROM auth_sessions WHERE id <> \(keeping) AND user_id = app_user_id()")
    }

    /// The signed-in user's sessions, newest activity first.
    public func sessions(_ connection: PostgresConnection) throws -> [SessionSummary] {
        try connection.query("""
            SELECT id, created_at, last_seen_at, user_agent FROM auth_sessions WHERE user_id = app_user_id() ORDER BY last_seen_at DESC
            """).rows.map { row in
            SessionSummary(
                id: try row.decode("id", as: UUID.self), createdAt: try row.decode("created_at", as: Date.self),
                lastSeenAt: try row.decode("last_seen_at", as: Date.self), userAgent: try row.decode("user_agent", as: String.self))
        }
    }

    /// The signed-in user's settings.
    public func settings(_ connection: PostgresConnection) throws -> AccountSettings? {
        guard let row = try connection.query(("""
            SELECT username, display_name, time_zone, show_on_leaderboard FROM users WHERE id = app_user_id()
            """ as SQL).prepared()).first else { return nil }
        return AccountSettings(
            username: try row.decode("username", as: String.self), displayName: try row.decode("display_name", as: String.self),
            timeZone: try row.decode("time_zone", as: String.self), showOnLeaderboard: try row.decode("show_on_leaderboard", as: Bool.self))
    }

    /// Saves the signed-in user's display name, time zone and leaderboard choice.
    public func updateSettings(displayName: String, timeZone: String, showOnLeaderboard: Bool, _ connection: PostgresConnection) throws {
        try connection.execute("""
            UPDATE users SET display_name = \(displayName), time_zone = \(timeZone), show_on_leaderboard = \(showOnLeaderboard)
            WHERE id = app_user_id()
            """)
    }

    /// The signed-in user's password hash (to check the current password before a change).
    public func passwordHash(_ connection: PostgresConnection) throws -> String? {
        try connection.query("SELECT password_hash FROM users WHERE id = app_user_id()").first?.decode("password_hash", as: String.self)
    }

    /// Replaces the signed-in user's password; the database then ends all their sessions.
    public func changePassword(newHash: String, _ connection: PostgresConnection) throws {
        try connection.execute("UPDATE users SET password_hash = \(newHash) WHERE id = app_user_id()")
    }

    /// Whether a time zone name is one PostgreSQL knows.
    public func isKnownTimeZone(_ name: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = \(name)) AS known").first!.decode("known", as: Bool.self)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
