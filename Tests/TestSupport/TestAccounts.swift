import Foundation
import PostgresClient
import Synchronization

/// An account made for a test, with a live session: `token` is its session cookie's value, which
/// is all the database needs to know who a statement is for.
public struct TestAccount: Sendable {
    public let id: UUID
    public let username: String
    public let token: String
}

extension TestDatabase {
    /// Makes an account (through the owner's `auth_create_user`) and a session for it, as the
    /// server would on sign-in; the password is not usable (the hash is a placeholder). The
    /// token is a well-formed cookie value (43 base64url characters) unless one is given.
    public func makeAccount(
        _ username: String, role: String = "student", displayName: String? = nil, token: String? = nil, csrf: String = "csrf"
    ) throws -> TestAccount {
        let owner = try adminConnection()
        let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"
        let id = try owner.query("SELECT auth_create_user(\(username), \(displayName ?? username), \(hash), \(role)) AS id").single().decode("id", as: UUID.self)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let token = token ?? String((0..<43).map { _ in alphabet.randomElement()! })
        try owner.execute("SET ROLE portal_auth")
        try owner.execute("""
            INSERT INTO auth_sessions (user_id, token_hash, csrf_token, created_at, last_seen_at)
            VALUES (\(id), sha256(convert_to(\(token), 'UTF8')), \(csrf), now(), now())
            """)
        return TestAccount(id: id, username: username, token: token)
    }

    /// A connection as the cluster's superuser, which row-level security does not limit: for
    /// counting what was stored, never for what the app does.
    public func superuserConnection() throws -> PostgresConnection {
        try PostgresConnection(url: adminURL, overrides: ["dbname": name, "user": "postgres"])
    }

    /// Sets the database's clock (`app_now()`) to `date`: the offset only the owner may set.
    public func setClock(_ date: Date) throws {
        try adminConnection().execute("UPDATE server_clock SET offset_seconds = extract(epoch FROM \(date)::timestamptz - now())")
    }
}

extension ConnectionPool {
    /// Runs `body` as the server runs a request's statements: in a transaction carrying the
    /// session cookie's token (and a guest cookie's), nothing else.
    public func asCaller<Value>(_ account: TestAccount?, guestToken: String? = nil, _ body: (PostgresConnection) throws -> Value) throws -> Value {
        try withTransaction(settings: ["app.session_token": account?.token ?? "", "app.guest_token": guestToken ?? ""], body)
    }
}

/// The server's clock in a test, moved forward by hand; with a database, the database's clock
/// (`app_now()`) moves with it, so deadlines and days agree in both places.
public final class TestClock: Sendable {
    private let now = Mutex(Date())
    private let database: TestDatabase?

    public init(database: TestDatabase? = nil) {
        self.database = database
    }

    public func read() -> Date { now.withLock { $0 } }

    /// Moves the database's clock first, then the server's: the database never trails a server
    /// that has already moved on (it would refuse what the server just allowed).
    public func advance(_ seconds: TimeInterval) {
        let date = read().addingTimeInterval(seconds)
        // The clock of a test's own database; failing to move it fails the test's later checks.
        try? database?.setClock(date)
        now.withLock { $0 = date }
    }

    /// Moves on to the next time it is `hour`:00 in UTC: a test of what happens at a time of
    /// day reads the same whenever it runs (an hour from 23:30 is already tomorrow).
    public func advance(toHour hour: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let next = calendar.nextDate(after: read(), matching: DateComponents(hour: hour, minute: 0, second: 0), matchingPolicy: .nextTime)!
        advance(next.timeIntervalSince(read()))
    }
}
