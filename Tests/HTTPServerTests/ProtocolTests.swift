import Foundation
import HTTPServer
import TestSupport
import Testing

@Suite("HTTP/1.1 behaviour", .onTestThreads)
struct ProtocolTests {
    @Test("keep-alive serves several requests on one connection")
    func keepAlive() throws {
        let server = try TestServer()
        let client = try server.client()
        for _ in 0..<3 {
            client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 200)
            #expect(response.bodyText == "hello")
            #expect(response.header("Connection") == nil)
        }
    }

    @Test("HTTP/1.0 closes by default and keeps alive when asked")
    func http10() throws {
        let server = try TestServer()
        let plain = try server.client()
        plain.send("GET /hello HTTP/1.0\r\n\r\n")
        #expect(try #require(plain.readResponse()).bodyText == "hello")
        #expect(plain.isClosedByPeer())

        let kept = try server.client()
        for _ in 0..<2 {
            kept.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let response = try #require(kept.readResponse())
            #expect(response.header("Connection") == "keep-alive")
        }
    }

    @Test("Connection: close is honoured after the answer")
    func connectionClose() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(try #require(client.readResponse()).header("Connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test("pipelined requests are answered in order, even when an earlier one is slow")
    func pipelining() throws {
        let server = try TestServer()
        let client = try server.client()
        let paths = ["/slow", "/hello", "/fast", "/exams/eu/aws-saa", "/slow", "/hello"]
        client.send(paths.map { "GET \($0) HTTP/1.1\r\nHost: a\r\n\r\n" }.joined())
        let bodies = try paths.map { _ in try #require(client.readResponse()).bodyText }
        #expect(bodies == ["slow", "hello", "fast", "eu|aws-saa", "slow", "hello"])
    }

    @Test("HEAD answers the headers of GET without the body")
    func head() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("HEAD /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        let head = try #require(client.readResponse(forHead: true))
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "5")
        let get = try #require(client.readResponse())
        #expect(get.bodyText == "hello")
    }

    @Test("Expect: 100-continue gets an interim answer, then the body is read")
    func expectContinue() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        let interim = client.readAvailablePrefix(count: 25)
        #expect(String(decoding: interim, as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("hello")
        #expect(try #require(client.readResponse()).bodyText == "hello")
    }

    @Test("chunked bodies are reassembled, extensions and trailers ignored")
    func chunked() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n1\r\n \r\n6\r\nworld!\r\n0\r\nX-Trailer: yes\r\n\r\n")
        #expect(try #require(client.readResponse()).bodyText == "hello world!")
        client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(client.readResponse()).bodyText == "hello")
    }

    @Test("a route's own body limit replaces the default")
    func perRouteBodyLimit() throws {
        let server = try TestServer()
        let client = try server.client()
        let body = [UInt8](repeating: 65, count: 100_000)
        client.send(Array("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        #expect(try #require(client.readResponse()).bodyText == "received 100000 bytes")
    }

    @Test("unknown paths are 404, wrong methods 405 with Allow")
    func notFoundAndMethodNotAllowed() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(client.readResponse()).status == 404)
        client.send("DELETE /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        let notAllowed = try #require(client.readResponse())
        #expect(notAllowed.status == 405)
        #expect(notAllowed.header("Allow") == "GET, HEAD")
        // Neither closes the connection: its framing is fine.
        client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(client.readResponse()).status == 200)
    }

    @Test("paths are percent-decoded into parameters; encoded slashes and dot segments are refused", arguments: [
        ("/exams/eu/aws%20saa", 200, "eu|aws saa"),
        ("/exams/%E6%97%A5%E6%9C%AC/jlpt", 200, "日本|jlpt"),
        ("/exams/eu%2Fx/aws", 400, nil),
        ("/exams/../hello", 400, nil),
        ("/exams/%2e%2e/x", 400, nil),
        ("/exams/eu/%zz", 400, nil),
        ("/exams/eu/%C3%28", 400, nil),
    ] as [(String, Int, String?)])
    func pathDecoding(_ path: String, _ status: Int, _ body: String?) throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET \(path) HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == status)
        if let body { #expect(response.bodyText == body) }
    }

    @Test("absolute-form targets are routed by their path")
    func absoluteForm() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET http://a/exams/eu/x?y=1 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(client.readResponse()).bodyText == "eu|x")
    }

    @Test("handler errors become answers: HTTPError keeps its status, anything else is a 500 that leaks nothing")
    func handlerErrors() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /fail HTTP/1.1\r\nHost: a\r\n\r\nGET /crash HTTP/1.1\r\nHost: a\r\n\r\n")
        let conflict = try #require(client.readResponse())
        #expect(conflict.status == 409)
        #expect(conflict.bodyText.contains("That name is taken."))
        let crash = try #require(client.readResponse())
        #expect(crash.status == 500)
        #expect(!crash.bodyText.contains("Unexpected"))
    }

    @Test("every response carries the security headers")
    func securityHeaders() throws {
        let server = try TestServer()
        let client = try server.client()
        for path in ["/hello", "/nowhere", "/app.js"] {
            client.send("GET \(path) HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            let policy = try #require(response.header("Content-Security-Policy"))
            #expect(policy.contains("object-src 'none'") && policy.contains("base-uri 'none'") && policy.contains("frame-ancestors 'none'"))
            #expect(response.header("Referrer-Policy") != nil)
        }
    }

    @Test("Set-Cookie carries the attributes it was given")
    func setCookie() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("GET /cookie HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(client.readResponse()).header("Set-Cookie") == "session=abc; Path=/; Max-Age=60; HttpOnly; Secure; SameSite=Lax")
    }

    @Test("server-sent events arrive as they are sent, without holding a worker")
    func serverSentEvents() throws {
        let server = try TestServer { $0.workers = 1 }
        let client = try server.client()
        client.send("GET /events HTTP/1.1\r\nHost: a\r\n\r\n")
        let text = String(decoding: client.readAvailable(), as: UTF8.self)
        #expect(text.contains("Content-Type: text/event-stream"))
        #expect(text.contains("Transfer-Encoding: chunked"))
        for number in 1...3 { #expect(text.contains("event: tick\ndata: event \(number)\ndata: second line\n\n")) }
        #expect(text.hasSuffix("0\r\n\r\n"))
        // The single worker is free again.
        let other = try server.client()
        other.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(other.readResponse()).status == 200)
    }
}

extension RawHTTPClient {
    /// Reads exactly `count` bytes (or fewer if the peer closes).
    func readAvailablePrefix(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < count, recv(fd, &byte, 1, 0) == 1 { bytes.append(byte) }
        return bytes
    }
}
