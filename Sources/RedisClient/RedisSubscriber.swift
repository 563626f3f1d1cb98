import Foundation

/// Listens on channels matching a pattern (PSUBSCRIBE) on a connection of its own, in a
/// thread of its own, and hands each message to `handler`. It reconnects by itself when Redis
/// goes away and comes back.
public final class RedisSubscriber: @unchecked Sendable {
    private let endpoint: RedisEndpoint
    private let pattern: String
    private let handler: @Sendable (_ channel: String, _ message: String) -> Void
    private let lock = NSLock()
    private var stopped = false
    private var connection: RedisConnection?
    private var subscribed = false

    public init(_ endpoint: RedisEndpoint, pattern: String, handler: @escaping @Sendable (String, String) -> Void) {
        self.endpoint = endpoint
        self.pattern = pattern
        self.handler = handler
    }

    /// Starts listening.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "redis-subscriber"
        thread.start()
    }

    /// Whether the subscription is in place now.
    public var isSubscribed: Bool { lock.withLock { subscribed } }

    /// Stops listening and closes the connection.
    public func stop() {
        let current = lock.withLock { () -> RedisConnection? in
            stopped = true
            return connection
        }
        current?.interrupt()
    }

    private func run() {
        var backoff = 0.1
        while !lock.withLock({ stopped }) {
            do {
                let connection = try RedisConnection(endpoint)
                connection.setReadTimeout(nil)
                lock.withLock { self.connection = connection }
                try connection.command(["PSUBSCRIBE", pattern])
                lock.withLock { subscribed = true }
                backoff = 0.1
                while true {
                    let push = try connection.nextPush().elements
                    // ["pmessage", pattern, channel, message]
                    if push.count == 4, push[0].text == "pmessage", let channel = push[2].text, let message = push[3].text {
                        handler(channel, message)
                    }
                }
            } catch {
                lock.withLock {
                    subscribed = false
                    connection = nil
                }
                if lock.withLock({ stopped }) { return }
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, 2)
            }
        }
    }
}
