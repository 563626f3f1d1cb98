import Foundation
import RedisClient
import Synchronization
import TestSupport
import Testing

@Suite("Redis client", .onTestThreads)
struct RedisClientTests {
    static func endpoint() throws -> RedisEndpoint {
        guard let url = ProcessInfo.processInfo.environment["PORTAL_TEST_REDIS_URL"], let endpoint = RedisEndpoint(url: url) else {
            throw TestEnvironmentError("PORTAL_TEST_REDIS_URL is not set: run the tests with `make test`, which starts Redis")
        }
        return endpoint
    }

    @Test("commands go as argument vectors: any bytes in a value stay a value")
    func binarySafe() throws {
        let redis = try RedisConnection(try Self.endpoint())
        let key = "test:\(UUID().uuidString)"
        defer { _ = try? redis.command(["DEL", key]) }
        for value in ["plain", "with spaces and \"quotes\"", "line\r\nFLUSHALL\r\n", "試験 🎓", ""] {
            try redis.command(["SET", key, value])
            #expect(try redis.command(["GET", key]) == .string(value))
        }
        #expect(try redis.command(["GET", key + ":missing"]) == .null)
        #expect(try redis.command(["INCRBY", key + ":n", "5"]) == .integer(5))
        _ = try redis.command(["DEL", key + ":n"])
        #expect(throws: RedisError.self) { try redis.command(["INCR", key]) }
        #expect(redis.isHealthy, "an error reply leaves the connection usable")
    }

    @Test("sorted sets and scripts: atomic increments, ranks in order")
    func sortedSets() throws {
        let pool = RedisPool(try Self.endpoint())
        let key = "test:z:\(UUID().uuidString)"
        defer { _ = try? pool.command(["DEL", key]) }
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            _ = try? pool.command(["ZINCRBY", key, "10", "p\(index % 5)"])
        }
        let top = try pool.command(["ZREVRANGE", key, "0", "-1", "WITHSCORES"]).elements
        #expect(top.count == 10)
        #expect(top.enumerated().filter { $0.offset % 2 == 1 }.allSatisfy { $0.element.number == 100 })
        #expect(try pool.command(["EVAL", "return redis.call('ZSCORE', KEYS[1], ARGV[1])", "1", key, "p3"]).number == 100)
    }

    @Test("a subscriber hears what is published on matching channels")
    func publishSubscribe() throws {
        let endpoint = try Self.endpoint()
        let heard = Mutex<[String]>([])
        let prefix = "test-\(UUID().uuidString.prefix(8))"
        let subscriber = RedisSubscriber(endpoint, pattern: "\(prefix):*") { channel, message in
            heard.withLock { $0.append("\(channel)=\(message)") }
        }
        subscriber.start()
        defer { subscriber.stop() }
        for _ in 0..<100 where !subscriber.isSubscribed { Thread.sleep(forTimeInterval: 0.02) }
        let publisher = try RedisConnection(endpoint)
        try publisher.command(["PUBLISH", "\(prefix):a", "one"])
        try publisher.command(["PUBLISH", "other:a", "not for us"])
        try publisher.command(["PUBLISH", "\(prefix):b", "two"])
        for _ in 0..<100 where heard.withLock({ $0.count }) < 2 { Thread.sleep(forTimeInterval: 0.02) }
        #expect(heard.withLock { $0 } == ["\(prefix):a=one", "\(prefix):b=two"])
    }

    @Test("an unreachable server is a connection error, not a hang", arguments: [
        "unix:///nonexistent/redis.sock", "redis://127.0.0.1:1", "redis-sentinel://127.0.0.1:1,127.0.0.1:2/portal",
    ])
    func unreachable(_ url: String) {
        #expect(throws: RedisError.self) { try RedisConnection(RedisEndpoint(url: url)!) }
        #expect(RedisPool(RedisEndpoint(url: url)!).ping() == false)
    }

    @Test("after a failure the pool's breaker answers at once for a while, then tries again")
    func circuitBreaker() throws {
        let pool = RedisPool(RedisEndpoint(url: "redis://127.0.0.1:1")!, timeout: .seconds(1), cooldown: 0.5)
        #expect(pool.ping() == false)
        #expect(pool.isTripped)
        let started = Date()
        #expect(pool.ping() == false)
        #expect(Date().timeIntervalSince(started) < 0.05, "refused at once while open")
        Thread.sleep(forTimeInterval: 0.6)
        #expect(!pool.isTripped)
        let working = RedisPool(try Self.endpoint())
        #expect(working.ping() && !working.isTripped)
    }

    @Test("REDIS_URL forms", arguments: [
        ("redis://127.0.0.1:6380", RedisEndpoint.tcp(host: "127.0.0.1", port: 6380)), ("redis://localhost", .tcp(host: "localhost", port: 6379)),
        ("unix:///run/redis.sock", .unix(path: "/run/redis.sock")),
        ("redis-sentinel://10.0.0.1:26379,10.0.0.2/portal",
         .sentinel(sentinels: [.init(host: "10.0.0.1", port: 26379), .init(host: "10.0.0.2", port: 26379)], master: "portal")),
    ])
    func endpoints(_ url: String, _ expected: RedisEndpoint) {
        #expect(RedisEndpoint(url: url) == expected)
    }

    @Test("malformed REDIS_URLs are refused", arguments: [
        "http://x", "redis://:80", "redis://h:99999", "unix://relative", "", "redis-sentinel://h:1", "redis-sentinel:///portal",
        "redis-sentinel://h:1,:2/portal",
    ])
    func badEndpoints(_ url: String) {
        #expect(RedisEndpoint(url: url) == nil)
    }
}
