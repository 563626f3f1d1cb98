import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Outbound HTTP/1.1 for the few requests the portal makes itself (an LMS's keys and tokens, an
/// identity provider's discovery document): HTTPS through OpenSSL with the certificate chain and
/// the host name verified, a deadline for the whole exchange, and a limit on what is read. Plain
/// HTTP only to a loopback address, and only when allowed (tests and local rehearsals). One
/// request per connection (`Connection: close`), which is all these rare requests need.
public struct HTTPClient: Sendable {
    public struct Configuration: Sendable {
        /// Seconds for the whole exchange: connecting, the handshake, sending and reading.
        public var timeout: Double
        /// The most a response may hold (head and body); more is refused.
        public var maximumResponseBytes: Int
        /// Plain `http://` to 127.0.0.1, ::1 or localhost (`OUTBOUND_ALLOW_LOOPBACK_HTTP=1`).
        public var allowsLoopbackHTTP: Bool
        /// Certificates to trust instead of the system's (a PEM file), for a test's own authority.
        public var trustedCertificates: String?

        public init(timeout: Double = 10, maximumResponseBytes: Int = 1 << 20, allowsLoopbackHTTP: Bool = false, trustedCertificates: String? = nil) {
            self.timeout = timeout
            self.maximumResponseBytes = maximumResponseBytes
            self.allowsLoopbackHTTP = allowsLoopbackHTTP
            self.trustedCertificates = trustedCertificates
        }

        /// From the environment: `OUTBOUND_ALLOW_LOOPBACK_HTTP=1`, `OUTBOUND_CA_FILE`.
        public static func fromEnvironment(_ environment: [String: String]) -> Configuration {
            Configuration(
                allowsLoopbackHTTP: environment["OUTBOUND_ALLOW_LOOPBACK_HTTP"] == "1",
                trustedCertificates: environment["OUTBOUND_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    public struct Response: Sendable {
        public var status: Int
        /// Header fields in order, names as sent.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The first field named `name` (any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Sends one request and reads the whole response.
    public func send(_ method: String, _ address: String, headers: [(String, String)] = [], body: [UInt8] = []) throws(ClientError) -> Response {
        let target = try Target(address, allowsLoopbackHTTP: configuration.allowsLoopbackHTTP)
        let deadline = Date().addingTimeInterval(configuration.timeout)
        let socket = try Self.connect(host: target.host, port: target.port, deadline: deadline)
        let channel: Channel
        do throws(ClientError) {
            channel = target.secure
                ? try TLSChannel(socket: socket, host: target.host, trusted: configuration.trustedCertificates, deadline: deadline)
                : PlainChannel(socket: socket, deadline: deadline)
        } catch {
            close(socket)
            throw error
        }
        defer { channel.close() }
        var head = "\(method) \(target.path) HTTP/1.1\r\nHost: \(target.hostHeader)\r\nUser-Agent: StudyPortal\r\nAccept: */*\r\nConnection: close\r\n"
        for (name, value) in headers {
            guard !(name + value).unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { throw .invalidRequest("a header holds a line break") }
            head += "\(name): \(value)\r\n"
        }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        try channel.write(Array((head + "\r\n").utf8) + body)
        var received: [UInt8] = []
        while let chunk = try channel.read() {
            received += chunk
            guard received.count <= configuration.maximumResponseBytes else { throw .tooLarge(configuration.maximumResponseBytes) }
        }
        return try ResponseParser.parse(received)
    }

    /// A TCP connection to `host:port` before `deadline`, blocking, with the time left as its
    /// send and receive timeouts.
    static func connect(host: String, port: Int, deadline: Date) throws(ClientError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { throw .unresolved(host) }
        defer { freeaddrinfo(first) }
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = next {
            next = candidate.pointee.ai_next
            let socket = Glibc.socket(candidate.pointee.ai_family, candidate.pointee.ai_socktype, candidate.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            // Non-blocking while connecting, so the deadline holds for an address that never answers.
            let flags = fcntl(socket, F_GETFL)
            _ = fcntl(socket, F_SETFL, flags | O_NONBLOCK)
            var connected = Glibc.connect(socket, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) == 0
            if !connected && errno == EINPROGRESS {
                var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
                let wait = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
                if poll(&poller, 1, wait) == 1 {
                    var problem: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(socket, SOL_SOCKET, SO_ERROR, &problem, &length)
                    connected = problem == 0
                }
            }
            guard connected, deadline.timeIntervalSinceNow > 0 else {
                close(socket)
                if deadline.timeIntervalSinceNow <= 0 { throw .timedOut }
                continue
            }
            _ = fcntl(socket, F_SETFL, flags)
            return socket
        }
        throw .unreachable(host)
    }
}
