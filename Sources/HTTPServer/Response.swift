/// What a handler answers: a status, header fields and a body.
public struct Response: Sendable {
    /// The body: bytes known in full, or an event stream that stays open.
    public enum Body: Sendable {
        case bytes([UInt8])
        /// A `text/event-stream` response. The closure runs on the event loop once the head is
        /// written; it must not block. Keep the stream and `send` to it from any thread.
        case eventStream(@Sendable (EventStream) -> Void)
    }

    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// An HTML response.
    public static func html(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(bytes))
    }

    /// A JSON response from bytes already encoded.
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(bytes))
    }

    /// A redirect; `303 See Other` is what a form submission wants.
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location], body: .bytes([]))
    }

    /// An event stream (Server-Sent Events).
    public static func eventStream(_ open: @escaping @Sendable (EventStream) -> Void) -> Response {
        Response(
            status: .ok,
            headers: ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store"],
            body: .eventStream(open))
    }

    /// Adds a `Set-Cookie` field.
    public mutating func setCookie(_ cookie: SetCookie) {
        headers.add("Set-Cookie", cookie.headerValue)
    }
}

/// An error a handler throws to answer with a status and a message the user can act on.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    public var message: String
    /// Extra header fields (`Allow`, `Retry-After`).
    public var headers: HTTPHeaders

    public init(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status.code) \(message)" }
}
