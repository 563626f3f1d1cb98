/// Why a request did not get a response the portal can use.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidAddress(String)
    /// Plain HTTP to anything but loopback, or loopback without leave.
    case plainHTTPRefused(String)
    case unresolved(String)
    case unreachable(String)
    case timedOut
    /// The TLS handshake or the certificate's verification failed (OpenSSL's reason).
    case tlsFailed(String)
    case invalidRequest(String)
    case tooLarge(Int)
    case malformedResponse(String)
    case connectionLost

    public var description: String {
        switch self {
        case .invalidAddress(let address): "\(address.prefix(200)) is not an http(s) address"
        case .plainHTTPRefused(let address): "\(address.prefix(200)) is not HTTPS; plain HTTP goes only to this machine, and only when OUTBOUND_ALLOW_LOOPBACK_HTTP=1"
        case .unresolved(let host): "\(host.prefix(200)) does not resolve"
        case .unreachable(let host): "\(host.prefix(200)) does not accept connections"
        case .timedOut: "no answer in time"
        case .tlsFailed(let reason): "the TLS connection failed: \(reason)"
        case .invalidRequest(let reason): "the request is malformed: \(reason)"
        case .tooLarge(let limit): "the response is larger than \(limit) bytes"
        case .malformedResponse(let reason): "the response is not HTTP/1.1: \(reason)"
        case .connectionLost: "the connection was lost"
        }
    }
}
