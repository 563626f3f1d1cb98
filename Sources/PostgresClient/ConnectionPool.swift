import Foundation

/// A bounded set of connections shared by worker threads.
///
/// A checkout blocks until a connection is free, up to `checkoutTimeout`, then fails with
/// `.poolTimeout` rather than hanging. A connection that comes back inside a transaction is
/// rolled back; one that is broken (the server restarted, the network dropped) is closed and
/// replaced by a new one at the next checkout, so the pool recovers by itself.
public final class ConnectionPool: @unchecked Sendable {
    /// How to open connections and how many to keep.
    public struct Configuration: Sendable {
        public var url: String
        public var overrides: [String: String]
        public var maxConnections: Int
        public var checkoutTimeout: Duration
        /// `.unnamed` behind a connection pooler in transaction mode.
        public var naming: PostgresConnection.StatementNaming

        public init(
            url: String, overrides: [String: String] = [:], maxConnections: Int = 10, checkoutTimeout: Duration = .seconds(5),
            naming: PostgresConnection.StatementNaming = .hashed
        ) {
            self.url = url
            self.overrides = overrides
            self.maxConnections = maxConnections
            self.checkoutTimeout = checkoutTimeout
            self.naming = naming
        }
    }

    public let configuration: Configuration
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var closed = false

    public init(_ configuration: Configuration) {
        precondition(configuration.maxConnections > 0, "a pool needs at least one connection")
        self.configuration = configuration
    }

    /// Lends a connection to `body` and takes it back afterwards, whatever `body` did with it.
    @discardableResult
    public func withConnection<Value>(_ body: (PostgresConnection) throws -> Value) throws -> Value {
        let connection = try checkout()
        defer { checkin(connection) }
        return try body(connection)
    }

    /// Runs `body` in a transaction on a pooled connection.
    @discardableResult
    public func withTransaction<Value>(_ body: (PostgresConnection) throws -> Value) throws -> Value {
        try withConnection { try $0.withTransaction(body) }
    }

    /// Runs `body` in a transaction whose first statement sets transaction-local settings
    /// (`set_config(name, value, true)`, all in one statement), so they end with the
    /// transaction and can never be seen by the next user of the connection.
    @discardableResult
    public func withTransaction<Value>(settings: [String: String], _ body: (PostgresConnection) throws -> Value) throws -> Value {
        try withConnection { try $0.withTransaction(settings: settings, body) }
    }

    /// Whether the database answers a trivial query now.
    public func ping() -> Bool {
        (try? withConnection { try $0.query("SELECT 1") }) != nil
    }

    /// Closes idle connections and refuses further checkouts.
    public func shutdown() {
        condition.lock()
        closed = true
        let connections = idle
        idle.removeAll()
        open -= connections.count
        condition.broadcast()
        condition.unlock()
        connections.forEach { $0.close() }
    }

    /// The numbers of open and idle connections.
    public var statistics: (open: Int, idle: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (open, idle.count)
    }

    /// Takes a connection for as long as the caller needs it (one request, say); it must come
    /// back through `checkin`. Prefer `withConnection` where the use fits in one closure.
    public func checkout() throws -> PostgresConnection {
        let deadline = Date().addingTimeInterval(configuration.checkoutTimeout.seconds)
        condition.lock()
        while true {
            if closed {
                condition.unlock()
                throw PostgresError(kind: .poolClosed, message: "the connection pool is shut down")
            }
            if let connection = idle.popLast() {
                condition.unlock()
                if connection.isHealthy { return connection }
                // The server dropped it while it sat idle; open a fresh one in its place.
                connection.close()
                return try openConnectionForCountedSlot()
            }
            if open < configuration.maxConnections {
                open += 1
                condition.unlock()
                return try openConnectionForCountedSlot()
            }
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw PostgresError(
                    kind: .poolTimeout,
                    message: "no database connection became free within \(configuration.checkoutTimeout) (all \(configuration.maxConnections) in use)")
            }
        }
    }

    /// Opens a connection for a slot already counted in `open`; on failure gives the slot back.
    private func openConnectionForCountedSlot() throws -> PostgresConnection {
        do {
            return try PostgresConnection(url: configuration.url, overrides: configuration.overrides, naming: configuration.naming)
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// Gives back a connection from `checkout`: rolled back if a transaction was left open,
    /// closed if broken.
    public func checkin(_ connection: PostgresConnection) {
        if connection.isInTransaction && !connection.isBroken {
            _ = try? connection.execute("ROLLBACK")
        }
        let reusable = !connection.isBroken && !connection.isInTransaction
        if !reusable { connection.close() }
        condition.lock()
        if reusable && !closed {
            idle.append(connection)
        } else {
            open -= 1
            if reusable { connection.close() }
        }
        condition.signal()
        condition.unlock()
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
