/// Why a request did not get a response the portal can use.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidAddress(String)
    /// Plain HTTP to anything but loopback, or loopback without leave.
    case plainHTTPRefused(String)
    case invalidRequest(String)
    case tooLarge(Int)
    /// No usable answer came from `host`, for whichever `cause`. What a person is told is the
    /// same for every cause — an address the portal may not reach, a closed port, a port that
    /// never answers, a TLS failure — so the portal's messages cannot be used to map a network;
    /// the cause is for the server's log (`detail`).
    case unreachable(host: String, cause: Cause)

    /// What went wrong on the way to an answer.
    public enum Cause: Error, Sendable, Equatable, CustomStringConvertible {
        case unresolved
        /// The name resolves to an address outbound requests may not reach (`OutboundAddresses`).
        case refusedAddress(String)
        case noConnection
        case timedOut
        /// The TLS handshake or the certificate's verification failed (OpenSSL's reason).
        case tls(String)
        case connectionLost
        case malformedResponse(String)

        public var description: String {
            switch self {
            case .unresolved: "the name does not resolve"
            case .refusedAddress(let address): "it resolves to \(address), which outbound requests may not reach"
            case .noConnection: "no connection could be made"
            case .timedOut: "no answer in time"
            case .tls(let reason): "the TLS connection failed: \(reason)"
            case .connectionLost: "the connection was lost"
            case .malformedResponse(let reason): "the response is not HTTP/1.1: \(reason)"
            }
        }
    }

    public var description: String {
        switch self {
        case .invalidAddress(let address): "\(address.prefix(200)) is not an http(s) address"
        case .plainHTTPRefused(let address): "\(address.prefix(200)) is not HTTPS; plain HTTP goes only to this machine, and only when OUTBOUND_ALLOW_LOOPBACK_HTTP=1"
        case .invalidRequest(let reason): "the request is malformed: \(reason)"
        case .tooLarge(let limit): "the response is larger than \(limit) bytes"
        case .unreachable(let host, _): "could not reach \(host.prefix(200))"
        }
    }

    /// The description with the cause, for the server's log only.
    public var detail: String {
        if case .unreachable(let host, let cause) = self { return "could not reach \(host.prefix(200)): \(cause)" }
        return description
    }
}
