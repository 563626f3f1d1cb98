import Foundation
import Glibc
import HTTPClient
import TestSupport
import Testing

/// The outbound client against real servers on loopback: HTTPS with a certificate from an
/// authority made for the test, the same server refused without that authority or under another
/// name, plain HTTP only to loopback and only when allowed, and the limits on time and size.
@Suite("Outbound HTTP", .onTestThreads)
struct HTTPClientTests {
    /// A test server (`Tests/Fixtures/outbound_server.py`), plain or with a certificate.
    static func server(certificate: (cert: String, key: String)? = nil) throws -> ScriptServer {
        try ScriptServer(script: "outbound_server.py", arguments: certificate.map { [$0.cert, $0.key] } ?? [])
    }

    @Test("HTTPS with the chain and the address verified: bodies by length and chunked, a POST echoed")
    func verifiedHTTPS() throws {
        let certificates = try TestCertificates()
        let server = try Self.server(certificate: certificates.local)
        let client = HTTPClient(configuration: .init(allowsLoopbackHTTP: true, trustedCertificates: certificates.authority))
        let hello = try client.send("GET", "https://127.0.0.1:\(server.port)/hello")
        #expect(hello.status == 200 && hello.body == Array("hello".utf8) && hello.header("content-type") == "text/plain")
        let named = try client.send("GET", "https://localhost:\(server.port)/hello")
        #expect(named.status == 200, "the certificate names localhost too")
        let chunked = try client.send("GET", "https://127.0.0.1:\(server.port)/chunked")
        #expect(String(decoding: chunked.body, as: UTF8.self) == "first second third")
        let echoed = try client.send("POST", "https://127.0.0.1:\(server.port)/token?x=1", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("a=b".utf8))
        #expect(String(decoding: echoed.body, as: UTF8.self) == "POST /token?x=1 a=b")
        #expect(try client.send("GET", "https://127.0.0.1:\(server.port)/nothing").status == 404)
    }

    @Test("a certificate no trusted authority signed, or one for another name, is refused before anything is sent")
    func untrusted() throws {
        let certificates = try TestCertificates()
        let local = try Self.server(certificate: certificates.local)
        let systemRoots = HTTPClient(configuration: .init(allowsLoopbackHTTP: true))
        #expect(throws: ClientError.unreachable(host: "127.0.0.1", cause: .tls("unable to get local issuer certificate"))) {
            try systemRoots.send("GET", "https://127.0.0.1:\(local.port)/hello")
        }
        let other = try Self.server(certificate: certificates.other)
        let trusting = HTTPClient(configuration: .init(allowsLoopbackHTTP: true, trustedCertificates: certificates.authority))
        let error = #expect(throws: ClientError.self) { try trusting.send("GET", "https://127.0.0.1:\(other.port)/hello") }
        #expect(error == .unreachable(host: "127.0.0.1", cause: .tls("IP address mismatch")), "a certificate for example.org does not serve 127.0.0.1")
    }

    @Test("plain HTTP goes only to loopback and only when allowed")
    func plainHTTP() throws {
        let server = try Self.server()
        #expect(throws: ClientError.plainHTTPRefused("http://127.0.0.1:\(server.port)/hello")) {
            try HTTPClient().send("GET", "http://127.0.0.1:\(server.port)/hello")
        }
        let allowed = HTTPClient(configuration: .init(allowsLoopbackHTTP: true))
        #expect(try allowed.send("GET", "http://127.0.0.1:\(server.port)/hello").body == Array("hello".utf8))
        #expect(throws: ClientError.plainHTTPRefused("http://192.0.2.1/token")) { try allowed.send("GET", "http://192.0.2.1/token") }
        #expect(throws: ClientError.invalidAddress("ftp://127.0.0.1/x")) { try allowed.send("GET", "ftp://127.0.0.1/x") }
        #expect(throws: ClientError.invalidRequest("a header holds a line break")) {
            try allowed.send("GET", "http://127.0.0.1:\(server.port)/hello", headers: [("X-Note", "a\r\nInjected: yes")])
        }
        #expect(HTTPClient.Configuration.fromEnvironment(["OUTBOUND_ALLOW_LOOPBACK_HTTP": "1"]).allowsLoopbackHTTP)
        #expect(!HTTPClient.Configuration.fromEnvironment([:]).allowsLoopbackHTTP)
    }

    @Test("a response larger than the limit, a server that does not answer in time and one that is not there each end the request")
    func limits() throws {
        let server = try Self.server()
        let small = HTTPClient(configuration: .init(maximumResponseBytes: 1 << 20, allowsLoopbackHTTP: true))
        #expect(throws: ClientError.tooLarge(1 << 20)) { try small.send("GET", "http://127.0.0.1:\(server.port)/big") }
        let hasty = HTTPClient(configuration: .init(timeout: 1, allowsLoopbackHTTP: true))
        #expect(throws: ClientError.unreachable(host: "127.0.0.1", cause: .timedOut)) { try hasty.send("GET", "http://127.0.0.1:\(server.port)/slow") }
        // A port nothing listens on (the server's, once it is gone).
        let port = server.port
        kill(server.pid, SIGTERM)
        usleep(300_000)
        #expect(throws: ClientError.unreachable(host: "127.0.0.1", cause: .noConnection)) { try small.send("GET", "http://127.0.0.1:\(port)/hello") }
    }

    @Test("the public internet only: loopback, private, link-local, CGNAT, multicast, unique-local and mapped addresses are refused before connecting, in the same words as a closed port")
    func internalAddresses() throws {
        let server = try Self.server()
        let client = HTTPClient()
        // An open port and a closed one on this machine, and internal addresses that answer
        // nothing here: each reads the same.
        for address in ["https://127.0.0.1:\(server.port)/hello", "https://127.0.0.1:1/x", "https://localhost:\(server.port)/", "https://[::1]:\(server.port)/",
                        "https://10.1.2.3/", "https://172.16.0.9/", "https://192.168.1.1/", "https://169.254.169.254/latest/meta-data/",
                        "https://100.64.0.1/", "https://224.0.0.1/", "https://[fd00::1]/", "https://[fe80::1]/", "https://[::ffff:127.0.0.1]:\(server.port)/",
                        "https://[::ffff:10.0.0.1]/", "https://0.0.0.0:\(server.port)/", "https://[::]:\(server.port)/"] {
            let error = #expect(throws: ClientError.self, "\(address)") { try client.send("GET", address) }
            guard case .unreachable(_, let cause)? = error else { Issue.record("\(address): \(String(describing: error))"); continue }
            #expect(error?.description.hasPrefix("could not reach ") == true)
            if case .refusedAddress = cause {} else { Issue.record("\(address) was tried: \(cause)") }
        }
        // The exceptions open what they name, and nothing else.
        let opened = HTTPClient(configuration: .init(timeout: 1, allowedRanges: [AddressRange("10.0.0.0/8")!]))
        let ten = #expect(throws: ClientError.self) { try opened.send("GET", "https://10.255.255.1/") }
        if case .unreachable(_, .refusedAddress)? = ten { Issue.record("10.0.0.0/8 was opened") }
        let other = #expect(throws: ClientError.self) { try opened.send("GET", "https://192.168.0.1/") }
        if case .unreachable(_, .refusedAddress)? = other {} else { Issue.record("192.168.0.0/16 was not opened: \(String(describing: other))") }
        let configured = HTTPClient.Configuration.fromEnvironment(["OUTBOUND_ALLOW": "10.0.0.0/8, fd00::/8"])
        #expect(configured.allowedRanges == [AddressRange("10.0.0.0/8")!, AddressRange("fd00::/8")!])
        #expect(configured.addresses.permits([10, 0, 0, 1]) && !configured.addresses.permits([127, 0, 0, 1]) && configured.addresses.permits([93, 184, 216, 34]))
    }
}
