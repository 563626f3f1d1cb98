/// The request methods the server implements; any other method is answered `501`.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS

    /// Whether the method may change state (and so needs a CSRF check in the application).
    public var isUnsafe: Bool {
        switch self {
        case .GET, .HEAD, .OPTIONS: false
        default: true
        }
    }
}

/// The protocol versions the server speaks.
public enum HTTPVersion: Sendable, Hashable {
    case http1_0, http1_1

    var text: String { self == .http1_1 ? "HTTP/1.1" : "HTTP/1.0" }
}
