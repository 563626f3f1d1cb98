import Foundation
import PostgresClient

/// What an account may do, as `users.role` stores it (the database's word, never a setting
/// the server chose).
public enum Role: String, Sendable, Equatable, CaseIterable {
    case student
    case teacher
    case admin

    /// Teachers and admins run classes, share links and live events.
    public var teaches: Bool {
        switch self {
        case .student: false
        case .teacher, .admin: true
        }
    }
}

/// The signed-in user behind a session cookie.
public struct SessionUser: Sendable, Equatable {
    public var sessionID: UUID
    public var userID: UUID
    public var role: Role
    public var displayName: String
    public var csrfToken: String
    /// The interface language the user chose; nil follows their browser.
    public var locale: String?
    public var timeZone: String
    /// The colour scheme the user chose for their pages.
    public var colorScheme: ColorScheme = .device
    /// Whether the readings over words (ruby) are hidden on the user's pages.
    public var hidesReadings = false
    /// Whether questions offer to be read aloud (the user's setting or their accommodation).
    public var readsAloud = false
}

/// A reserved sign-in attempt (counted before any password is hashed), or how long to wait.
public enum LoginReservation: Sendable, Equatable {
    /// Hash the password with this salt and cost, then finish with the attempt's id.
    case attempt(id: UUID, salt: [UInt8], memoryLimit: Int, passes: Int)
    /// Too many failures for the account or the address: try again after this many seconds.
    case wait(seconds: Int)
}

/// An account's own settings, as the settings page shows them.
public struct AccountSettings: Sendable, Equatable {
    public var username: String
    public var displayName: String
    public var timeZone: String
    public var showOnLeaderboard: Bool
    /// The retention the user's reviews aim at (0.70–0.97).
    public var desiredRetention: Double
    /// Whether the zone was ever chosen or named by the student's browser (else it is the UTC
    /// an account starts with).
    public var timeZoneConfirmed = true
    /// The user's own read-aloud setting (an accommodation may turn read-aloud on besides).
    public var readsAloud = false
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

    /// Registers a student and signs them in with the session of `token` (only its hash is
    /// kept); nil when the username is taken (case-insensitively).
    public func register(
        username: String, displayName: String, passwordHash: String, token: String, csrfToken: String, userAgent: String,
        timeZone: String, _ connection: PostgresConnection
    ) throws -> UUID? {
        try connection.query("""
            SELECT auth_register(\(username), \(displayName), \(passwordHash), \(token), \(csrfToken), \(userAgent), \(timeZone)) AS id
            """).first.flatMap { try $0.decode("id", as: UUID?.self) }
    }

    /// Creates or resets an account with a role (the command line's `create-admin`, as the owner).
    public func createUser(username: String, displayName: String, passwordHash: String, role: Role, _ connection: PostgresConnection) throws -> UUID {
        guard let row = try connection.query("SELECT auth_create_user(\(username), \(displayName), \(passwordHash), \(role.rawValue)) AS id").first else {
            throw PostgresError(kind: .server, message: "auth_create_user returned no row")
        }
        return try row.decode("id", as: UUID.self)
    }

    /// Reserves a sign-in attempt for a username from a client address, counted before any
    /// hashing: the salt and cost to hash the password with (a decoy's for an unknown name), or
    /// how long to wait.
    public func beginLogin(username: String, address: String, _ connection: PostgresConnection) throws -> LoginReservation {
        guard let row = try connection.query(("""
            SELECT attempt, salt, memlimit, opslimit, retry_after FROM auth_login_begin(\(username), \(address))
            """ as SQL).prepared()).first else {
            throw PostgresError(kind: .server, message: "auth_login_begin returned no row")
        }
        guard let id = try row.decode("attempt", as: UUID?.self) else {
            return .wait(seconds: max(1, try row.decode("retry_after", as: Int?.self) ?? 1))
        }
        return .attempt(
            id: id, salt: try row.decode("salt", as: PostgresBytes.self).bytes, memoryLimit: try row.decode("memlimit", as: Int.self),
            passes: try row.decode("opslimit", as: Int.self))
    }

    /// Finishes a reserved attempt with the proof of the password (its raw Argon2id output with
    /// the account's salt and cost); on success the session of `token` exists and the user's id
    /// comes back. Nil for a wrong password, an unknown or disabled account, a spent attempt.
    public func finishLogin(
        attempt: UUID, proof: [UInt8], token: String, csrfToken: String, userAgent: String, address: String, _ connection: PostgresConnection
    ) throws -> UUID? {
        try connection.query(("""
            SELECT auth_login_finish(\(attempt), \(PostgresBytes(proof)), \(token), \(csrfToken), \(userAgent), \(address)) AS id
            """ as SQL).prepared()).first.flatMap { try $0.decode("id", as: UUID?.self) }
    }

    /// Changes the signed-in user's password, given a reserved attempt for their own username
    /// and the proof of the current password; every session ends and `token`'s begins. False
    /// when the proof fails.
    public func changePassword(
        attempt: UUID, proof: [UInt8], newHash: String, token: String, csrfToken: String, userAgent: String, _ connection: PostgresConnection
    ) throws -> Bool {
        try connection.query("""
            SELECT auth_change_password(\(attempt), \(PostgresBytes(proof)), \(newHash), \(token), \(csrfToken), \(userAgent)) AS changed
            """).first?.decode("changed", as: Bool.self) ?? false
    }

    /// The user of a live session cookie, or nil (unknown, expired or disabled: expired ones are removed).
    public func sessionUser(token: String, now: Date, idle: TimeInterval, absolute: TimeInterval, _ connection: PostgresConnection) throws -> SessionUser? {
        guard let row = try connection.query(("""
            SELECT session_id, user_id, role, display_name, csrf_token, locale, time_zone, color_scheme, hides_readings, reads_aloud
            FROM auth_resolve_session(\(token), \(now), make_interval(secs => \(idle)), make_interval(secs => \(absolute)))
            """ as SQL).prepared()).first else { return nil }
        guard let role = Role(rawValue: try row.decode("role", as: String.self)) else {
            throw PostgresError(kind: .server, message: "an account has a role this build does not know")
        }
        return SessionUser(
            sessionID: try row.decode("session_id", as: UUID.self), userID: try row.decode("user_id", as: UUID.self),
            role: role, displayName: try row.decode("display_name", as: String.self),
            csrfToken: try row.decode("csrf_token", as: String.self), locale: try row.decode("locale", as: String?.self),
            timeZone: try row.decode("time_zone", as: String.self),
            colorScheme: ColorScheme(rawValue: try row.decode("color_scheme", as: String.self)) ?? .device,
            hidesReadings: try row.decode("hides_readings", as: Bool.self), readsAloud: try row.decode("reads_aloud", as: Bool.self))
    }

    /// Counts one hit of `key` against a limit (`take`), or only looks: the seconds to wait
    /// before the next is allowed, 0 when it is. At most `limit` hits per `window` seconds,
    /// shared by every instance.
    public func rateLimit(_ bucket: String, key: String, limit: Int, window: Int, take: Bool, _ connection: PostgresConnection) throws -> Int {
        try connection.query(("SELECT rate_limit(\(bucket), \(key), \(limit), \(window), \(take)) AS wait" as SQL).prepared())
            .first?.decode("wait", as: Int.self) ?? 0
    }

    /// Removes expired logins, used tokens past their expiry and old limit windows (the
    /// background job); how many rows went.
    public func pruneAnonymousState(_ connection: PostgresConnection) throws -> Int {
        try connection.query("SELECT prune_anonymous_state() AS removed").single().decode("removed", as: Int.self)
    }

    /// Ends one session of the signed-in user (row-level security limits it to their own).
    @discardableResult
    public func endSession(id: UUID, _ connection: PostgresConnection) throws -> Bool {
        try connection.execute("DELETE FROM auth_sessions WHERE id = \(id)") == 1
    }

    /// Ends every session of the signed-in user except `keeping`.
    @discardableResult
    public func endOtherSessions(keeping: UUID, _ connection: PostgresConnection) throws -> Int {
        try connection.execute("DELETE FROM auth_sessions WHERE id <> \(keeping) AND user_id = (SELECT app_user_id())")
    }

    /// The signed-in user's settings.
    public func settings(_ connection: PostgresConnection) throws -> AccountSettings? {
        try Self.settings(connection.query(Self.settingsStatement))
    }

    /// The signed-in reader's data version (`users.data_version`: changed by every transaction
    /// that writes their answers, sessions, cards or memberships), for one pipelined read.
    public static let dataVersionStatement: SQL = ("SELECT data_version FROM users WHERE id = (SELECT app_user_id())" as SQL).prepared()

    /// What `dataVersionStatement` returned (0 for nobody).
    public static func dataVersion(_ result: QueryResult) throws -> Int64 {
        try result.first?.decode("data_version", as: Int64.self) ?? 0
    }

    /// `settings` as one statement of a pipelined read.
    public static let settingsStatement: SQL = ("""
        SELECT username, display_name, time_zone, show_on_leaderboard, desired_retention::float8 AS desired_retention, time_zone_confirmed, reads_aloud
        FROM users WHERE id = (SELECT app_user_id())
        """ as SQL).prepared()

    /// The settings `settingsStatement` returned.
    public static func settings(_ result: QueryResult) throws -> AccountSettings? {
        guard let row = result.first else { return nil }
        return AccountSettings(
            username: try row.decode("username", as: String.self), displayName: try row.decode("display_name", as: String.self),
            timeZone: try row.decode("time_zone", as: String.self), showOnLeaderboard: try row.decode("show_on_leaderboard", as: Bool.self),
            desiredRetention: try row.decode("desired_retention", as: Double.self),
            timeZoneConfirmed: try row.decode("time_zone_confirmed", as: Bool.self), readsAloud: try row.decode("reads_aloud", as: Bool.self))
    }

    /// Sets the signed-in user's interface language (nil: follow their browser).
    public func setLocale(_ locale: String?, _ connection: PostgresConnection) throws {
        try connection.execute(("UPDATE users SET locale = \(locale) WHERE id = (SELECT app_user_id())" as SQL).prepared())
    }

    /// Sets the colour scheme of the signed-in user's pages.
    public func setColorScheme(_ scheme: ColorScheme, _ connection: PostgresConnection) throws {
        try connection.execute(("UPDATE users SET color_scheme = \(scheme.rawValue) WHERE id = (SELECT app_user_id())" as SQL).prepared())
    }

    /// Turns the read-aloud button on the caller's questions on or off (their own setting; an
    /// accommodation keeps it on whatever this says).
    public func setReadsAloud(_ reads: Bool, _ connection: PostgresConnection) throws {
        try connection.execute(("UPDATE users SET reads_aloud = \(reads) WHERE id = (SELECT app_user_id())" as SQL).prepared())
    }

    /// Hides or shows the readings over words (ruby) on the caller's pages.
    public func setHidesReadings(_ hides: Bool, _ connection: PostgresConnection) throws {
        try connection.execute(("UPDATE users SET hides_readings = \(hides) WHERE id = (SELECT app_user_id())" as SQL).prepared())
    }

    /// The retentions a student may aim at, as the settings offer them.
    public static let retentionChoices: [Double] = [0.70, 0.75, 0.80, 0.85, 0.90, 0.93, 0.95, 0.97]

    /// Sets the retention the signed-in student's reviews aim at, and reschedules their cards
    /// from their history for it (in the caller's transaction).
    public func setDesiredRetention(_ retention: Double, _ connection: PostgresConnection) throws {
        try connection.execute("UPDATE users SET desired_retention = \(retention)::numeric WHERE id = (SELECT app_user_id())")
        _ = try ReviewCardStore().rebuild(connection)
    }

    /// Saves the signed-in user's display name, time zone and leaderboard choice.
    public func updateSettings(displayName: String, timeZone: String, showOnLeaderboard: Bool, _ connection: PostgresConnection) throws {
        try connection.execute("""
            UPDATE users SET display_name = \(displayName), time_zone = \(timeZone), show_on_leaderboard = \(showOnLeaderboard),
                             time_zone_confirmed = true
            WHERE id = (SELECT app_user_id())
            """)
    }

    /// The caller's time zone as their browser names it at sign-in: taken only while their zone
    /// was never confirmed (a zone they chose stays theirs) and only a zone PostgreSQL knows;
    /// confirmed from then on. False when nothing changed.
    @discardableResult
    public func takeBrowserTimeZone(_ zone: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.query("""
            UPDATE users SET time_zone = \(zone), time_zone_confirmed = true
            WHERE id = (SELECT app_user_id()) AND NOT time_zone_confirmed
              AND length(\(zone)) <= 64 AND EXISTS (SELECT 1 FROM pg_timezone_names z WHERE z.name = \(zone))
            RETURNING id
            """).first != nil
    }

    /// Whether a time zone name is one PostgreSQL knows.
    public func isKnownTimeZone(_ name: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = \(name)) AS known").first?.decode("known", as: Bool.self) ?? false
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// Retention (`purge_expired_data`): what guests leave and accounts never used, past their time.
extension AccountStore {
    /// How many of each a purge removed.
    public struct Purged: Sendable, Equatable {
        public var guestSessions: Int
        public var guestPlayers: Int
        public var accounts: Int

        public var total: Int { guestSessions + guestPlayers + accounts }

        public init(guestSessions: Int = 0, guestPlayers: Int = 0, accounts: Int = 0) {
            self.guestSessions = guestSessions
            self.guestPlayers = guestPlayers
            self.accounts = accounts
        }
    }

    /// Deletes up to `limit` of each kind older than `days` (never fewer than 30: the database's floor).
    public func purgeExpired(days: Int, limit: Int, _ connection: PostgresConnection) throws -> Purged {
        let row = try connection.query("SELECT guest_sessions, guest_players, accounts FROM purge_expired_data(\(days), \(limit))").single()
        return Purged(
            guestSessions: try row.decode("guest_sessions", as: Int.self), guestPlayers: try row.decode("guest_players", as: Int.self),
            accounts: try row.decode("accounts", as: Int.self))
    }
}
