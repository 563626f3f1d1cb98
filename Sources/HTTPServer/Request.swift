import Foundation

/// A complete request as a handler sees it: head, body, route parameters and the peer.
public struct Request: Sendable {
    public var head: RequestHead
    /// The whole body (requests are read completely before a handler runs).
    public var body: [UInt8]
    /// Named route parameters, percent-decoded (`:region` in `/exams/:region`).
    public var parameters: [String: String]
    /// The peer's IP address.
    public var remoteAddress: String

    public init(head: RequestHead, body: [UInt8] = [], parameters: [String: String] = [:], remoteAddress: String = "") {
        self.head = head
        self.body = body
        self.parameters = parameters
        self.remoteAddress = remoteAddress
    }

    public var method: HTTPMethod { head.method }
    public var path: String { head.path }
    public var headers: HTTPHeaders { head.headers }

    /// The query string's fields (`?difficulty=3&page=2`), decoded.
    public var query: FormFields { FormFields(urlEncoded: head.query) }

    /// The cookies the client sent.
    public var cookies: [String: String] { Cookies.parse(head.headers.values("Cookie")) }

    /// One cookie's value (`cookies[name]`, without reading the others).
    public func cookie(_ name: String) -> String? { Cookies.value(name, in: head.headers.values("Cookie")) }

    /// A route parameter; handlers can rely on it existing when their pattern names it.
    public func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// A route parameter typed `(uuid)` in its pattern, as a UUID: the router matched only a
    /// UUID there. Nil only for a name the pattern does not type.
    public func uuid(_ name: String) -> UUID? { parameters[name].flatMap(UUID.init(uuidString:)) }
}
