import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

@Suite("Slow, greedy and many clients", .onTestThreads)
struct ResilienceTests {
    @Test("a head that dribbles in too slowly is cut off with 408 (slowloris)")
    func slowHeadIsCutOff() throws {
        let server = try TestServer { $0.headerTimeout = .seconds(1) }
        let client = try server.client(timeout: 6)
        let started = Date()
        client.send("GET /hello HTTP/1.1\r\nHost: a\r\nX-Slow: ")
        let response = try #require(client.readResponse())
        #expect(response.status == 408)
        #expect(client.isClosedByPeer())
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("an idle keep-alive connection is closed after the idle timeout")
    func idleConnectionCloses() throws {
        let server = try TestServer { $0.idleTimeout = .seconds(1) }
        let client = try server.client(timeout: 6)
        client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(client.readResponse()).status == 200)
        let started = Date()
        #expect(client.isClosedByPeer())
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("a body that stops arriving is abandoned with 408")
    func stalledBody() throws {
        let server = try TestServer { $0.bodyTimeout = .seconds(1) }
        let client = try server.client(timeout: 6)
        client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc")
        #expect(try #require(client.readResponse()).status == 408)
        #expect(client.isClosedByPeer())
    }

    @Test("a client that stops reading a large response is dropped")
    func nonReadingClientIsDropped() throws {
        let server = try TestServer { $0.writeTimeout = .seconds(1) }
        let client = try server.client(timeout: 1)
        var small: Int32 = 4096
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        client.send("GET /big.bin HTTP/1.1\r\nHost: a\r\n\r\n")
        // Read nothing; the server should give up and close within a few seconds.
        var open = true
        for _ in 0..<40 where open {
            Thread.sleep(forTimeInterval: 0.25)
            open = server.server.metrics.currentConnections > 0
        }
        #expect(!open)
    }

    @Test("beyond the connection cap new connections get 503 and those being served are undisturbed")
    func connectionCap() throws {
        let server = try TestServer { $0.maxConnections = 2 }
        let first = try server.client()
        let second = try server.client()
        first.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(first.readResponse()).status == 200)
        second.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(second.readResponse()).status == 200)
        let third = try server.client()
        let refused = try #require(third.readResponse())
        #expect(refused.status == 503)
        #expect(third.isClosedByPeer())
        first.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(first.readResponse()).status == 200)
        #expect(server.server.metrics.rejectedConnections == 1)
    }

    @Test("when the worker queue is full the answer is 503 with Retry-After, at once")
    func queueFull() throws {
        let server = try TestServer { $0.workers = 1; $0.queueCapacity = 1 }
        let busy = try server.client()
        busy.send("GET /block HTTP/1.1\r\nHost: a\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.2)
        let queued = try server.client()
        queued.send("GET /block HTTP/1.1\r\nHost: a\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.2)
        let rejected = try server.client()
        rejected.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = try #require(rejected.readResponse())
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "1")
        // Handlers on the loop still answer while the workers are busy.
        rejected.send("GET /fast HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(rejected.readResponse()).bodyText == "fast")
        server.gate.signal()
        server.gate.signal()
        #expect(try #require(busy.readResponse()).bodyText == "unblocked")
        #expect(try #require(queued.readResponse()).bodyText == "unblocked")
    }

    @Test("a request that waited longer than the queue allows is answered 503 with Retry-After, not served late, and counted")
    func longWaitIsShed() throws {
        let server = try TestServer { $0.workers = 1; $0.queueSojournLimit = .milliseconds(300) }
        let busy = try server.client()
        busy.send("GET /block HTTP/1.1\r\nHost: a\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.2)
        let waiting = try server.client()
        waiting.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        // Held well past the bound before a worker is free.
        Thread.sleep(forTimeInterval: 0.8)
        server.gate.signal()
        #expect(try #require(busy.readResponse()).bodyText == "unblocked")
        let shed = try #require(waiting.readResponse())
        #expect(shed.status == 503)
        #expect(shed.header("Retry-After") == "1")
        #expect(server.server.metrics.shedRequests == 1)
        // The connection is still good: the next request, with a free worker, is served.
        waiting.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(waiting.readResponse()).bodyText == "hello")
    }

    @Test("once requests queue up, the newest is served first; a short queue is first come, first served")
    func newestFirstUnderPressure() throws {
        // Three requests wait behind a busy worker, 0.2 s apart; in what order are they served?
        func served(pressureDelay: Duration) throws -> [String] {
            let order = Mutex<[String]>([])
            let server = try TestServer({ $0.workers = 1; $0.queueSojournLimit = .seconds(30); $0.queuePressureDelay = pressureDelay }) { router in
                router.get("/order/:name") { request in
                    order.withLock { $0.append(request.parameter("name")) }
                    return .text(request.parameter("name"))
                }
            }
            let busy = try server.client()
            busy.send("GET /block HTTP/1.1\r\nHost: a\r\n\r\n")
            Thread.sleep(forTimeInterval: 0.2)
            var clients: [RawHTTPClient] = []
            for name in ["first", "second", "third"] {
                let client = try server.client()
                client.send("GET /order/\(name) HTTP/1.1\r\nHost: a\r\n\r\n")
                clients.append(client)
                Thread.sleep(forTimeInterval: 0.2)
            }
            server.gate.signal()
            _ = try #require(busy.readResponse())
            for client in clients { #expect(try #require(client.readResponse()).status == 200) }
            return order.withLock { $0 }
        }
        // The oldest waited well past the pressure delay: the last to come goes first.
        #expect(try served(pressureDelay: .milliseconds(100)) == ["third", "second", "first"])
        // None waited as long as the delay: they go in the order they came.
        #expect(try served(pressureDelay: .seconds(10)) == ["first", "second", "third"])
    }

    @Test("1,000 concurrent keep-alive connections are all answered correctly")
    func thousandConnections() throws {
        // A queue that holds every request: this is about connections, not about shedding load
        // (which has its own test), and the machine may be busy with other suites meanwhile.
        let server = try TestServer { $0.queueCapacity = 2048 }
        let clients = try (0..<1000).map { _ in try server.client(timeout: 20) }
        for (index, client) in clients.enumerated() {
            client.send("GET /exams/r\(index)/e\(index) HTTP/1.1\r\nHost: a\r\n\r\n")
        }
        var correct = 0
        var wrong: [String] = []
        for (index, client) in clients.enumerated() {
            let response = client.readResponse()
            if response?.bodyText == "r\(index)|e\(index)" { correct += 1 } else { wrong.append("\(index): \(response.map { String($0.status) } ?? "no response")") }
        }
        #expect(correct == 1000, "\(wrong.prefix(5))")
        // And they are still open for a second round.
        for client in clients { client.send("GET /fast HTTP/1.1\r\nHost: a\r\n\r\n") }
        #expect(clients.allSatisfy { $0.readResponse()?.bodyText == "fast" })
    }

    @Test("shutdown lets in-flight requests finish, then stops accepting and exits")
    func shutdownDrains() throws {
        let server = try TestServer()
        let inFlight = try server.client()
        let idle = try server.client()
        idle.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(idle.readResponse()).status == 200)
        inFlight.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.1)
        let started = Date()
        server.server.shutdown()
        let response = try #require(inFlight.readResponse())
        #expect(response.bodyText == "slow")
        #expect(response.header("Connection") == "close")
        #expect(idle.isClosedByPeer())
        server.server.waitUntilStopped()
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(throws: (any Error).self) { try server.client() }
    }

    @Test("metrics count requests by status class and expose the histogram")
    func metrics() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = client.readResponse()
        _ = client.readResponse()
        let text = server.server.metrics.prometheusText()
        #expect(text.contains("http_requests_total{code=\"2xx\"} 1"))
        #expect(text.contains("http_requests_total{code=\"4xx\"} 1"))
        #expect(text.contains("http_request_duration_seconds_count 2"))
        #expect(text.contains("http_open_connections 1"))
    }
}
