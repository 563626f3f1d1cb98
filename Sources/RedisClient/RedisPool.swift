import Foundation

/// A few Redis connections shared by worker threads; a broken one is dropped and replaced at
/// the next checkout, so the pool recovers when Redis comes back.
public final class RedisPool: @unchecked Sendable {
    public let endpoint: RedisEndpoint
    private let maxConnections: Int
    private let timeout: Duration
    private let condition = NSCondition()
    private var idle: [RedisConnection] = []
    private var open = 0

    public init(_ endpoint: RedisEndpoint, maxConnections: Int = 4, timeout: Duration = .seconds(2)) {
        self.endpoint = endpoint
        self.maxConnections = maxConnections
        self.timeout = timeout
    }

    /// Lends a connection to `body`; throws `.connection` when Redis cannot be reached.
    public func withConnection<Value>(_ body: (RedisConnection) throws -> Value) throws -> Value {
        let connection = try checkout()
        defer { checkin(connection) }
        return try body(connection)
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
            return try RedisConnection(endpoint, timeout: timeout)
        } catch {
            condition.lock()
            open -= 1
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
