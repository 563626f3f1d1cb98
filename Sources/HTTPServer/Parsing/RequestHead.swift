/// The request line and header fields of a request, checked against RFC 9112.
public struct RequestHead: Sendable {
    /// How the body is delimited.
    public enum BodyFraming: Sendable, Equatable {
        case none
        case contentLength(Int)
        case chunked
    }

    public var method: HTTPMethod
    /// The request-target as sent (`/exams/eu/aws?x=1`).
    public var target: String
    /// The path part of the target, still percent-encoded.
    public var path: String
    /// The query part of the target without `?`, still percent-encoded ("" when absent).
    public var query: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    /// Whether the client asked to keep the connection open afterwards.
    public var keepAlive: Bool
    /// Whether the client sent `Expect: 100-continue`.
    public var expectsContinue: Bool
    public var bodyFraming: BodyFraming

    /// A head built in code, for exercising handlers in-process without a socket.
    public init(
        method: HTTPMethod, target: String, path: String, query: String = "", version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(), keepAlive: Bool = true, expectsContinue: Bool = false,
        bodyFraming: BodyFraming = .none
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.keepAlive = keepAlive
        self.expectsContinue = expectsContinue
        self.bodyFraming = bodyFraming
    }
}
