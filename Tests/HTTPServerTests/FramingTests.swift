import Foundation
import HTTPServer
import TestSupport
import Testing

/// Malformed or hostile requests, each with the status it must get. Every case is sent whole,
/// one byte at a time, and after a good request in the same write (which must be answered
/// normally first). The connection must be closed after the answer every time.
@Suite("Strict framing (RFC 9112)", .onTestThreads)
struct FramingTests {
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let status: Int
        var description: String { name }
        init(_ name: String, _ text: String, _ status: Int) {
            self.name = name
            bytes = Array(text.utf8)
            self.status = status
        }
        init(_ name: String, bytes: [UInt8], _ status: Int) {
            self.name = name
            self.bytes = bytes
            self.status = status
        }
    }

    static let cases: [Case] = [
        Case("Content-Length and Transfer-Encoding", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", 400),
        Case("Content-Length with a plus sign", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello", 400),
        Case("Content-Length in hexadecimal", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 0x10\r\n\r\n", 400),
        Case("negative Content-Length", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
        Case("Content-Length of 21 digits", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100000000000000000000\r\n\r\n", 400),
        Case("two differing Content-Lengths", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
        Case("Content-Length as a list", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\n\r\nabc", 400),
        Case("Transfer-Encoding gzip", "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        Case("Transfer-Encoding gzip, chunked", "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
        Case("Transfer-Encoding on HTTP/1.0", "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        Case("a chunk size that is not hexadecimal", "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", 400),
        Case("a chunk size that overflows", "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\nabc\r\n", 400),
        Case("chunk data not followed by CRLF", "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n", 400),
        Case("obsolete line folding", "GET /hello HTTP/1.1\r\nHost: a\r\nX-Long: one\r\n two\r\n\r\n", 400),
        Case("whitespace before the colon", "GET /hello HTTP/1.1\r\nHost : a\r\n\r\n", 400),
        Case("a bare CR in a header value", "GET /hello HTTP/1.1\r\nHost: a\r\nX-Test: a\rb\r\n\r\n", 400),
        Case("a bare LF ending a header line", "GET /hello HTTP/1.1\r\nHost: a\nX-Test: b\r\n\r\n", 400),
        Case("a NUL in a header value", bytes: Array("GET /hello HTTP/1.1\r\nHost: a\r\nX-Test: a".utf8) + [0] + Array("b\r\n\r\n".utf8), 400),
        Case("a control character in a header value", bytes: Array("GET /hello HTTP/1.1\r\nHost: a\r\nX-Test: a".utf8) + [1] + Array("\r\n\r\n".utf8), 400),
        Case("a header name that is not a token", "GET /hello HTTP/1.1\r\nHost: a\r\nBad[Name]: x\r\n\r\n", 400),
        Case("a header line without a colon", "GET /hello HTTP/1.1\r\nHost: a\r\nNoColonHere\r\n\r\n", 400),
        Case("HTTP/1.1 without Host", "GET /hello HTTP/1.1\r\nAccept: */*\r\n\r\n", 400),
        Case("two Host headers", "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        Case("a request line over 8 KiB", "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414),
        Case("a header section over 16 KiB", "GET /hello HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X-Filler: " + String(repeating: "b", count: 90) + "\r\n", count: 170) + "\r\n", 431),
        Case("more than 100 header fields", "GET /hello HTTP/1.1\r\nHost: a\r\n" + (1...101).map { "X-H\($0): v\r\n" }.joined() + "\r\n", 431),
        Case("a body over the route's limit", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 10485760\r\n\r\n", 413),
        Case("a chunked body over the route's limit", "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n", 413),
        Case("an unknown method", "BREW /hello HTTP/1.1\r\nHost: a\r\n\r\n", 501),
        Case("a method that is not a token", "GE(T /hello HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        Case("HTTP/2.0 in a request line", "GET /hello HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        Case("HTTP/1.2", "GET /hello HTTP/1.2\r\nHost: a\r\n\r\n", 505),
        Case("a malformed version", "GET /hello HTTP/one\r\nHost: a\r\n\r\n", 400),
        Case("an HTTP/0.9 request line", "GET /hello\r\n\r\n", 400),
        Case("two spaces in the request line", "GET  /hello HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        Case("a target that is not a path", "GET hello HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        Case("non-ASCII bytes in the target", bytes: Array("GET /h".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8), 400),
        Case("an Expect other than 100-continue", "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: magic\r\nContent-Length: 1\r\n\r\na", 417),
    ]

    static let good = "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n"

    @Test("a malformed request sent whole gets its status and the connection closes", arguments: cases)
    func whole(_ testCase: Case) throws {
        let server = try TestServer()
        let client = try server.client()
        client.send(testCase.bytes)
        let response = try #require(client.readResponse())
        #expect(response.status == testCase.status)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test("a malformed request sent one byte at a time gets the same answer", arguments: cases)
    func byteByByte(_ testCase: Case) throws {
        let server = try TestServer()
        let client = try server.client()
        client.sendSlowly(testCase.bytes)
        let response = try #require(client.readResponse())
        #expect(response.status == testCase.status)
        #expect(client.isClosedByPeer())
    }

    @Test("a good request pipelined before a bad one is answered normally first", arguments: cases)
    func afterGoodRequest(_ testCase: Case) throws {
        let server = try TestServer()
        let client = try server.client()
        client.send(Array(Self.good.utf8) + testCase.bytes)
        let first = try #require(client.readResponse())
        #expect(first.status == 200)
        #expect(first.bodyText == "hello")
        let second = try #require(client.readResponse())
        #expect(second.status == testCase.status)
        #expect(client.isClosedByPeer())
    }

    @Test("a body over the limit is refused before it is sent: the answer comes with only the head written")
    func contentTooLargeBeforeBody() throws {
        let server = try TestServer()
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 413)
        #expect(response.bodyText.contains("1024"))
    }
}
