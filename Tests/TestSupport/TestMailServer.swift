import Foundation

/// A real SMTP server on loopback (`Tests/Fixtures/mail_server.py`, aiosmtpd) that requires
/// STARTTLS with a certificate from its own test authority and AUTH with `username` and
/// `password`, and keeps every message it accepts for the test to read back.
public final class TestMailServer: @unchecked Sendable {
    public let certificates: TestCertificates
    public let username = "portal"
    public let password = "mail-secret-\(UUID().uuidString.prefix(8))"
    private let folder = NSTemporaryDirectory() + "mail-\(UUID().uuidString)"
    private let server: ScriptServer

    /// One message as the server received it.
    public struct Received: Decodable, Sendable {
        public var from: String
        public var to: [String]
        /// The message as sent after DATA (headers and body, CRLF line ends).
        public var data: String
        /// Whether the message came over TLS.
        public var tls: Bool
        /// Who authenticated, if anyone.
        public var user: String?

        /// A header field's value (the first of that name), unfolded.
        public func header(_ name: String) -> String? {
            let head = data.components(separatedBy: "\r\n\r\n").first ?? ""
            let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
            for line in unfolded.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].caseInsensitiveCompare(name) == .orderedSame {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }

        /// The decoded text of the part of `type` (`text/plain`, `text/html`).
        public func part(_ type: String) -> String? {
            guard let start = data.range(of: "Content-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n") else { return nil }
            let rest = data[start.upperBound...]
            let encoded = rest.prefix { $0 != "-" }.replacingOccurrences(of: "\r\n", with: "")
            return Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// `flags`: `--login-only` (AUTH LOGIN, no PLAIN), `--no-starttls` (no TLS on offer).
    public init(flags: [String] = []) throws {
        certificates = try TestCertificates()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        server = try ScriptServer(
            script: "mail_server.py", arguments: [folder, certificates.local.cert, certificates.local.key, username, password] + flags,
            interpreter: "/usr/bin/python3")
    }

    public var port: Int { server.port }

    /// `smtp://user:password@127.0.0.1:port`.
    public var url: String { "smtp://\(username):\(password)@127.0.0.1:\(port)" }

    /// Every message received so far, in order.
    public func messages() -> [Received] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }
        return names.sorted { Int($0.dropLast(5)) ?? 0 < Int($1.dropLast(5)) ?? 0 }.compactMap { name in
            (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))).flatMap { try? JSONDecoder().decode(Received.self, from: $0) }
        }
    }

    /// Waits up to `seconds` until at least `count` messages arrived; whatever arrived.
    public func waitForMessages(_ count: Int, seconds: Double = 20) -> [Received] {
        let deadline = Date().addingTimeInterval(seconds)
        while messages().count < count && Date() < deadline { usleep(50_000) }
        return messages()
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}
