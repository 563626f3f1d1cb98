import Foundation
import HTTPServer
import TestSupport
import Testing

/// What the server refuses whatever a handler does: header fields that would end the head
/// early, bodies that trickle in, and large bodies a route would not take from this sender.
@Suite("Server guards", .onTestThreads)
struct GuardTests {
    @Test("a header value with CR, LF or NUL (or a name that is not a token) is never sent: that response becomes a 500", arguments: [
        ("Location", "/x\r\nSet-Cookie: injected=1"), ("Location", "/x\nSet-Cookie: injected=1"), ("X-Note", "a\u{0}b"), ("Bad Name", "value"),
    ])
    func unsafeHeaderValues(_ field: (String, String)) throws {
        let server = try TestServer(routes: { router in
            router.get("/unsafe") { _ in Response(status: .seeOther, headers: [field.0: field.1]) }
        })
        let client = try server.client()
        client.send("GET /unsafe HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 500)
        #expect(response.header("Set-Cookie") == nil && response.header("Location") == nil)
        #expect(!response.bodyText.contains("injected"))
        // The connection goes on serving.
        client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try #require(client.readResponse()).status == 200)
    }

    @Test("a body trickled in a byte at a time, never stalling, is cut off at its whole-body deadline")
    func trickledBody() throws {
        let server = try TestServer { $0.bodyTimeout = .seconds(1); $0.minimumBodyRate = 100 }
        let client = try server.client(timeout: 8)
        let started = Date()
        client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n")
        // One byte every 0.4 s keeps well inside the 1 s stall timeout; 100 bytes at 100 B/s
        // plus the 1 s grace must be in by 2 s.
        let trickling = DispatchSemaphore(value: 0)
        // Sending on one thread while this one reads: the socket allows it, the type does not know.
        struct Sender: @unchecked Sendable { let client: RawHTTPClient }
        let sender = Sender(client: client)
        Thread.detachNewThread {
            for _ in 0..<20 {
                guard sender.client.send("x") else { break }
                if trickling.wait(timeout: .now() + 0.4) == .success { break }
            }
        }
        defer { trickling.signal() }
        let response = try #require(client.readResponse())
        #expect(response.status == 408)
        #expect(response.bodyText.contains("too slowly"))
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test("a large body for a route whose preflight refuses is never read: the refusal comes first and the connection closes")
    func preflightBeforeBody() throws {
        let server = try TestServer(routes: { router in
            router.post("/import", bodyLimit: 64 * 1024 * 1024, preflight: { head, _ in
                guard head.headers["Authorization"] == "Bearer admin" else { throw HTTPError(.notFound, "There is nothing at this address.") }
            }) { request in .text("read \(request.body.count)") }
        })
        let client = try server.client()
        client.send("POST /import HTTP/1.1\r\nHost: a\r\nContent-Length: 20971520\r\nExpect: 100-continue\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 404, "refused before any of the 20 MiB was sent")
        #expect(client.isClosedByPeer())
        // Allowed: the body is then read (after 100 Continue).
        let allowed = try server.client()
        let body = [UInt8](repeating: 65, count: 300_000)
        allowed.send(Array("POST /import HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer admin\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        let read = try #require(allowed.readResponse())
        #expect(read.status == 200 && read.bodyText == "read 300000")
        // A small body is read at once, as for any route.
        let small = try server.client()
        small.send("POST /import HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
        #expect(try #require(small.readResponse()).bodyText == "read 5")
    }
}
