import Foundation

/// A few Redis connections shared by worker threads; a broken one is dropped and replaced at
/// the next checkout, so the pool recovers when Redis comes back.
///
/// A circuit breaker keeps a Redis that is down or frozen from holding anyone: after a
/// connection fails, every call fails at once for `cooldown`, then one call tries again.
public final class RedisPool: @unchecked Sendable {
    public let endpoint: RedisEndpoint
    private let maxConnections: Int
    private let timeout: Duration
    private let cooldown: TimeInterval
    private let condition = NSCondition()
    private var idle: [RedisConnection] = []
    private var open = 0
    private var openUntil: Date?

    public init(_ endpoint: RedisEndpoint, maxConnections: Int = 4, timeout: Duration = .seconds(2), cooldown: TimeInterval = 3) {
        self.endpoint = endpoint
        self.maxConnections = maxConnections
        self.timeout = timeout
        self.cooldown = cooldown
    }

    /// Whether calls fail at once now (Redis failed a moment ago).
    public var isTripped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return openUntil.map { $0 > Date() } ?? false
    }

    /// Lends a connection to `body`; throws `.connection` when Redis cannot be reached (at once,
    /// while the breaker is open).
    public func withConnection<Value>(_ body: (RedisConnection) throws -> Value) throws -> Value {
        let connection = try checkout()
        defer { checkin(connection) }
        do {
            return try body(connection)
        } catch let error as RedisError where error.kind == .connection {
            trip()
            throw error
        }
    }

    private func trip() {
        condition.lock()
        openUntil = Date().addingTimeInterval(cooldown)
        condition.unlock()
    }

    /// Runs one command on a pooled connection.
    @discardableResult
    public func command(_ arguments: [String]) throws -> RedisReply {
        try withConnection { try $0.command(arguments) }
    }

    /// Whether Redis answers PING now.
    public func ping() -> Bool { (try? command(["PING"]))?.text == "PONG" }

    private func checkout() throws -> RedisConnection {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + 0.5)
        condition.lock()
        if let openUntil, openUntil > Date() {
            condition.unlock()
            throw RedisError(.connection, "Redis failed a moment ago; not trying again until \(openUntil)")
        }
        while idle.isEmpty && open >= maxConnections {
            guard condition.wait(until: deadline) else {
                condition.unlock()
                throw RedisError(.connection, "no Redis connection became free in time")
            }
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        open += 1
        condition.unlock()
        do {
            let connection = try RedisConnection(endpoint, timeout: timeout)
            condition.lock()
            openUntil = nil
            condition.unlock()
            return connection
        } catch {
            condition.lock()
            open -= 1
            openUntil = Date().addingTimeInterval(cooldown)
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func checkin(_ connection: RedisConnection) {
        condition.lock()
        if connection.isHealthy {
            idle.append(connection)
        } else {
            open -= 1
            connection.close()
        }
        condition.signal()
        condition.unlock()
    }
}
