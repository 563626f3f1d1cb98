import Foundation
import HTTPServer
import Testing
import TestSupport

@Suite("gzip for pages made per request", .onTestThreads)
struct CompressionTests {
    static let page = "<!DOCTYPE html><title>Results</title>" + String(repeating: "<p>Question 12: right — the key was B.</p>\n", count: 200)

    private func server() throws -> TestServer {
        try TestServer(routes: { router in
            router.get("/page") { _ in .html(Array(Self.page.utf8)) }
            router.get("/tiny") { _ in .html(Array("<p>ok</p>".utf8)) }
            router.get("/private") { _ in
                var response = Response.html(Array(Self.page.utf8))
                response.headers.add("Vary", "Cookie")
                return response
            }
            router.get("/encoded") { _ in
                Response(status: .ok, headers: ["Content-Type": "text/html", "Content-Encoding": "br"], body: .bytes(Array(Self.page.utf8)))
            }
        })
    }

    @Test("a page is gzipped when the client accepts it, and its body decodes to the same bytes")
    func gzippedWhenAccepted() throws {
        let server = try server()
        let client = try server.client()
        client.send("GET /page HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n")
        let zipped = try #require(client.readResponse())
        #expect(zipped.header("Content-Encoding") == "gzip")
        #expect(zipped.header("Vary") == "Accept-Encoding")
        #expect(zipped.body.count < Self.page.utf8.count / 4)
        #expect(Gzip.decompress(zipped.body) == Array(Self.page.utf8))
        client.send("GET /page HTTP/1.1\r\nHost: a\r\n\r\n")
        let plain = try #require(client.readResponse())
        #expect(plain.header("Content-Encoding") == nil)
        #expect(plain.header("Vary") == "Accept-Encoding")
        #expect(plain.bodyText == Self.page)
    }

    @Test("small bodies, refused gzip and bodies encoded already go out as they are; Vary keeps what was there")
    func leftAlone() throws {
        let server = try server()
        let client = try server.client()
        client.send("GET /tiny HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n\r\n")
        #expect(try #require(client.readResponse()).header("Content-Encoding") == nil)
        client.send("GET /page HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip;q=0, identity\r\n\r\n")
        #expect(try #require(client.readResponse()).bodyText == Self.page)
        client.send("GET /encoded HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n\r\n")
        let encoded = try #require(client.readResponse())
        #expect(encoded.header("Content-Encoding") == "br")
        #expect(encoded.bodyText == Self.page)
        client.send("GET /private HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n\r\n")
        let personal = try #require(client.readResponse())
        #expect(personal.header("Vary") == "Cookie, Accept-Encoding")
        #expect(Gzip.decompress(personal.body) == Array(Self.page.utf8))
    }
}
