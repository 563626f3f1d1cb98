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
        /// Loopback may be reached, and by plain `http://` (`OUTBOUND_ALLOW_LOOPBACK_HTTP=1`:
        /// tests and rehearsals on one machine).
        public var allowsLoopbackHTTP: Bool
        /// Ranges opened on purpose among those outbound requests may not reach (`OUTBOUND_ALLOW`).
        public var allowedRanges: [AddressRange]
        /// Certificates to trust instead of the system's (a PEM file), for a test's own authority.
        public var trustedCertificates: String?

        public init(
            timeout: Double = 10, maximumResponseBytes: Int = 1 << 20, allowsLoopbackHTTP: Bool = false, allowedRanges: [AddressRange] = [],
            trustedCertificates: String? = nil
        ) {
            self.timeout = timeout
            self.maximumResponseBytes = maximumResponseBytes
            self.allowsLoopbackHTTP = allowsLoopbackHTTP
            self.allowedRanges = allowedRanges
            self.trustedCertificates = trustedCertificates
        }

        /// Which addresses requests may reach under this configuration.
        public var addresses: OutboundAddresses { OutboundAddresses(allowed: allowedRanges, allowsLoopback: allowsLoopbackHTTP) }

        /// From the environment: `OUTBOUND_ALLOW_LOOPBACK_HTTP=1`, `OUTBOUND_ALLOW` (CIDRs, comma
        /// separated; nil when one is not a range), `OUTBOUND_CA_FILE`.
        public static func fromEnvironment(_ environment: [String: String]) -> Configuration {
            let ranges = (environment["OUTBOUND_ALLOW"] ?? "").split(separator: ",").compactMap { AddressRange(String($0)) }
            return Configuration(
                allowsLoopbackHTTP: environment["OUTBOUND_ALLOW_LOOPBACK_HTTP"] == "1", allowedRanges: ranges,
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

    /// Sends one request and reads the whole response. Redirects are not followed: a `3xx` is
    /// the answer. The host's addresses are resolved once, each checked against the
    /// configuration's `OutboundAddresses`, and the connection goes to a checked address (the
    /// name is never resolved a second time).
    public func send(_ method: String, _ address: String, headers: [(String, String)] = [], body: [UInt8] = []) throws(ClientError) -> Response {
        let target = try Target(address, allowsLoopbackHTTP: configuration.allowsLoopbackHTTP)
        var head = "\(method) \(target.path) HTTP/1.1\r\nHost: \(target.hostHeader)\r\nUser-Agent: StudyPortal\r\nAccept: */*\r\nConnection: close\r\n"
        for (name, value) in headers {
            guard !(name + value).unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { throw .invalidRequest("a header holds a line break") }
            head += "\(name): \(value)\r\n"
        }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        let received: [UInt8]
        do throws(ClientError.Cause) {
            let deadline = Date().addingTimeInterval(configuration.timeout)
            let socket = try Self.connect(host: target.host, port: target.port, addresses: configuration.addresses, deadline: deadline)
            let channel: Channel
            do throws(ClientError.Cause) {
                channel = target.secure
                    ? try TLSChannel(socket: socket, host: target.host, trusted: configuration.trustedCertificates, deadline: deadline)
                    : PlainChannel(socket: socket, deadline: deadline)
            } catch {
                close(socket)
                throw error
            }
            defer { channel.close() }
            try channel.write(Array((head + "\r\n").utf8) + body)
            var bytes: [UInt8] = []
            while let chunk = try channel.read() {
                bytes += chunk
                if bytes.count > configuration.maximumResponseBytes { break }
            }
            received = bytes
        } catch {
            throw .unreachable(host: target.host, cause: error)
        }
        guard received.count <= configuration.maximumResponseBytes else { throw .tooLarge(configuration.maximumResponseBytes) }
        do throws(ClientError.Cause) {
            return try ResponseParser.parse(received)
        } catch {
            throw .unreachable(host: target.host, cause: error)
        }
    }

    /// A TCP connection to `host:port` before `deadline`, blocking, with the time left as its
    /// send and receive timeouts; every address the name resolves to must be one `addresses`
    /// permits.
    package static func connect(host: String, port: Int, addresses: OutboundAddresses, deadline: Date) throws(ClientError.Cause) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { throw .unresolved }
        defer { freeaddrinfo(first) }
        // Every address is checked before any is tried: a name that also resolves to an
        // internal address is refused whole.
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = next {
            next = candidate.pointee.ai_next
            guard let bytes = Self.bytes(of: candidate.pointee) else { throw .refusedAddress("an address of an unknown family") }
            guard addresses.permits(bytes) else { throw .refusedAddress(Self.text(of: bytes)) }
        }
        next = first
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
        throw .noConnection
    }

    /// A resolved address's bytes (4 for IPv4, 16 for IPv6; an IPv4-mapped one as its 4).
    private static func bytes(of info: addrinfo) -> [UInt8]? {
        guard let address = info.ai_addr else { return nil }
        switch info.ai_family {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
        case AF_INET6:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
            return bytes
        default:
            return nil
        }
    }

    private static func text(of bytes: [UInt8]) -> String {
        bytes.count == 4 ? bytes.map(String.init).joined(separator: ".")
            : stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
    }
}
