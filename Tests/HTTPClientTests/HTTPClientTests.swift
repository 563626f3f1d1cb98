import Foundation
import Glibc
import HTTPClient
import TestSupport
import Testing

/// The outbound client against real servers on loopback: HTTPS with a certificate from an
/// authority made for the test, the same server refused without that authority or under another
/// name, plain HTTP only to loopback and only when allowed, and the limits on time and size.
@Suite("Outbound HTTP")
struct HTTPClientTests {
    /// A certificate authority and two server certificates it signed: one for 127.0.0.1 and
    /// localhost, one for another name.
    final class Certificates {
        let folder = NSTemporaryDirectory() + "outbound-\(UUID().uuidString)"
        var authority: String { folder + "/ca.pem" }

        init() throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            func openssl(_ arguments: [String]) throws {
                guard runCommand(["openssl"] + arguments) == 0 else { throw TestEnvironmentError("openssl \(arguments.first ?? "") failed: run scripts/deps.sh") }
            }
            try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Outbound test authority",
                         "-keyout", folder + "/ca.key", "-out", authority])
            for (name, names) in [("local", "IP:127.0.0.1,DNS:localhost"), ("other", "DNS:example.org")] {
                try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(name)", "-keyout", folder + "/\(name).key", "-out", folder + "/\(name).csr"])
                try String("subjectAltName=\(names)\n").write(toFile: folder + "/\(name).ext", atomically: true, encoding: .utf8)
                try openssl(["x509", "-req", "-in", folder + "/\(name).csr", "-CA", authority, "-CAkey", folder + "/ca.key", "-CAcreateserial",
                             "-days", "2", "-extfile", folder + "/\(name).ext", "-out", folder + "/\(name).pem"])
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// A test server (`Tests/Fixtures/outbound_server.py`), plain or with a certificate.
    static func server(certificate: (cert: String, key: String)? = nil) throws -> ScriptServer {
        try ScriptServer(script: "outbound_server.py", arguments: certificate.map { [$0.cert, $0.key] } ?? [])
    }

    @Test("HTTPS with the chain and the address verified: bodies by length and chunked, a POST echoed")
    func verifiedHTTPS() throws {
        let certificates = try Certificates()
        let server = try Self.server(certificate: (certificates.folder + "/local.pem", certificates.folder + "/local.key"))
        let client = HTTPClient(configuration: .init(trustedCertificates: certificates.authority))
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
        let certificates = try Certificates()
        let local = try Self.server(certificate: (certificates.folder + "/local.pem", certificates.folder + "/local.key"))
        let systemRoots = HTTPClient()
        #expect(throws: ClientError.tlsFailed("unable to get local issuer certificate")) {
            try systemRoots.send("GET", "https://127.0.0.1:\(local.port)/hello")
        }
        let other = try Self.server(certificate: (certificates.folder + "/other.pem", certificates.folder + "/other.key"))
        let trusting = HTTPClient(configuration: .init(trustedCertificates: certificates.authority))
        let error = #expect(throws: ClientError.self) { try trusting.send("GET", "https://127.0.0.1:\(other.port)/hello") }
        #expect(error == .tlsFailed("IP address mismatch"), "a certificate for example.org does not serve 127.0.0.1")
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
        #expect(throws: ClientError.timedOut) { try hasty.send("GET", "http://127.0.0.1:\(server.port)/slow") }
        // A port nothing listens on (the server's, once it is gone).
        let port = server.port
        kill(server.pid, SIGTERM)
        usleep(300_000)
        #expect(throws: ClientError.unreachable("127.0.0.1")) { try small.send("GET", "http://127.0.0.1:\(port)/hello") }
    }
}
