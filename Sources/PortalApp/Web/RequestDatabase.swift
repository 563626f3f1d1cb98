import Foundation
import PostgresClient

/// The database as one request sees it: at most one pooled connection, taken on first use and
/// given back when the response is ready (so no request ever holds two, and nested work shares
/// the one it has), with every transaction scoped to the request's own credentials.
///
/// Row-level security decides who a statement is for from the cookies' tokens themselves
/// (`app.session_token`, `app.guest_token`, resolved by the database): nothing here names a
/// user id or a role the database would have to believe.
final class RequestDatabase: @unchecked Sendable {  // one request, one worker thread at a time
    let pool: ConnectionPool
    /// Read replicas the request may read from instead, once told to (`readFromReplica`).
    private let replica: ConnectionPool?
    private var lender: ConnectionPool
    /// The session cookie's token, once the database has accepted it as a live session.
    private(set) var sessionToken: String?
    /// The guest cookie's token (for a visitor's own study sessions and live-event entries).
    private(set) var guestToken: String?
    private var connection: PostgresConnection?
    private var transactionDepth = 0
    /// Round trips of connections already given back, and where the current one's count began.
    private var finishedRoundTrips = 0
    private var roundTripsAtCheckout = 0

    init(pool: ConnectionPool, replica: ConnectionPool? = nil) {
        self.pool = pool
        self.replica = replica
        lender = pool
    }

    /// From here on, statements go to a read replica (when one is configured): the primary's
    /// connection, if the request had one, goes back first, so the request still holds one.
    func readFromReplica() {
        guard let replica, lender !== replica, transactionDepth == 0 else { return }
        release()
        lender = replica
    }

    /// Statements from here on run as this signed-in session (after sign-in, or once the
    /// cookie has been resolved).
    func use(sessionToken token: String?) { sessionToken = token }

    /// Statements from here on run as the guest holding this cookie token.
    func use(guestToken token: String?) { guestToken = token }

    /// The request's connection, checked out of the pool the first time.
    func checkedOutConnection() throws -> PostgresConnection {
        if let connection { return connection }
        let fresh = try lender.checkout()
        connection = fresh
        roundTripsAtCheckout = fresh.roundTrips
        return fresh
    }

    /// Runs `body` as the request's caller: in a transaction carrying the credentials when
    /// there are any, and straight on the connection (one round trip a statement) for a
    /// visitor without cookies, whom row-level security treats as nobody anyway.
    func run<Value>(_ body: (PostgresConnection) throws -> Value) throws -> Value {
        if transactionDepth == 0 && sessionToken == nil && guestToken == nil {
            return try body(checkedOutConnection())
        }
        return try transaction(body)
    }

    /// Runs `body` for what anyone may read (the catalogue's versions, the leaderboard's last
    /// refresh): straight on the connection, credentials and transaction left out — one round
    /// trip a statement — unless a transaction is open, which it then joins.
    func shared<Value>(_ body: (PostgresConnection) throws -> Value) throws -> Value {
        try body(checkedOutConnection())
    }

    /// Runs `body` in one transaction scoped to the request's credentials. A transaction inside
    /// another joins it.
    func transaction<Value>(_ body: (PostgresConnection) throws -> Value) throws -> Value {
        try transaction(first: []) { connection, _ in try body(connection) }
    }

    /// A transaction whose `first` statements go in the same flight as its start (see
    /// `PostgresConnection.withTransaction(settings:first:_:)`); `body` gets their rows.
    func transaction<Value>(first: [SQL], _ body: (PostgresConnection, [QueryResult]) throws -> Value) throws -> Value {
        let connection = try checkedOutConnection()
        // Every level counts, so `commit(after:)` knows whether an outer transaction commits.
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        if transactionDepth > 1 { return try body(connection, first.isEmpty ? [] : connection.pipeline(first)) }
        return try connection.withTransaction(settings: settings, first: first, body)
    }

    /// The request's last writes and its COMMIT in one flight (inside a transaction another
    /// joined, only the writes: the outer one commits).
    func commit(after statements: [SQL]) throws -> [QueryResult] {
        let connection = try checkedOutConnection()
        return transactionDepth > 1 ? try connection.pipeline(statements) : try connection.commit(after: statements)
    }

    /// Runs read-only `statements` as the request's caller in one flight (one implicit
    /// transaction carrying the credentials, or the open transaction's), and returns their rows
    /// in order: a page that knows what it needs waits for the database once.
    func read(_ statements: [SQL]) throws -> [QueryResult] {
        try flight(statements)
    }

    /// Runs `statements` that write as the request's caller in one flight: outside a
    /// transaction, one implicit transaction carrying the credentials and committed at the
    /// flight's end (all or nothing); inside one, part of it.
    func write(_ statements: [SQL]) throws -> [QueryResult] {
        try flight(statements)
    }

    private func flight(_ statements: [SQL]) throws -> [QueryResult] {
        try checkedOutConnection().read(settings: settings, statements)
    }

    private var settings: [String: String] { ["app.session_token": sessionToken ?? "", "app.guest_token": guestToken ?? ""] }

    /// How many times the request has waited for the database so far (`X-Database-Round-Trips`
    /// in development, which tests hold pages to).
    var roundTrips: Int { finishedRoundTrips + (connection.map { $0.roundTrips - roundTripsAtCheckout } ?? 0) }

    /// Gives the connection back to the pool (rolled back if a transaction was left open).
    func release() {
        if let connection {
            finishedRoundTrips += connection.roundTrips - roundTripsAtCheckout
            lender.checkin(connection)
        }
        connection = nil
    }
}
