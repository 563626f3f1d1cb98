import Foundation

/// A handler: takes a complete request, returns a response or throws `HTTPError`.
/// It runs synchronously on a worker thread (or on the event loop for `onLoop` routes, which
/// must never block), and may block on I/O such as a database query.
public typealias Handler = @Sendable (Request) throws -> Response

/// Decides from the head alone, on a worker thread, whether a request may send its body: runs
/// before a body larger than the server's default limit is read (throw `HTTPError`, usually
/// 403 or 404, to refuse it unread; the connection then closes).
public typealias Preflight = @Sendable (RequestHead, _ remoteAddress: String) throws -> Void

/// The server's hook for answering on the event loop: a response made from what is in memory,
/// or nil to have the route's handler run on a worker as usual. It must never block (no I/O,
/// no waiting on locks held by blocking work); what it knows is the application's business.
public typealias EventLoopAnswer = @Sendable (Request) -> Response?

/// Method + path patterns with named parameters: `/exams/:region/:exam`. A parameter typed
/// `(uuid)` — `/sessions/:id(uuid)` — matches only a UUID, so a malformed one is a 404 before
/// any handler runs and the handler reads it as a `UUID` (`Request.uuid`).
public struct Router: Sendable {
    struct Route: Sendable {
        var method: HTTPMethod
        var segments: [Segment]
        var handler: Handler
        var bodyLimit: Int?
        var preflight: Preflight?
        var onLoop: Bool
        var answerOnLoop: EventLoopAnswer?

        /// For each segment, whether it is a literal (which pattern is the more specific).
        var literals: [Bool] { segments.map { if case .literal = $0 { true } else { false } } }

        /// Whether `decoded` (of as many segments) fits: literals equal, parameters not empty,
        /// typed ones of their type.
        func fits(_ decoded: [String]) -> Bool {
            // Literals first: most routes of the same length differ in one, and a UUID's check is
            // the dearer test.
            for (segment, value) in zip(segments, decoded) {
                if case .literal(let literal) = segment, literal != value { return false }
            }
            for (segment, value) in zip(segments, decoded) {
                switch segment {
                case .literal: break
                case .parameter: if value.isEmpty { return false }
                case .uuid: if !Router.isUUID(value) { return false }
                }
            }
            return true
        }

        /// The match of `decoded` (which fits), its parameters by name.
        func found(_ decoded: [String]) -> Match {
            var parameters: [String: String] = [:]
            for (segment, value) in zip(segments, decoded) {
                switch segment {
                case .literal: break
                case .parameter(let name), .uuid(let name): parameters[name] = value
                }
            }
            return .found(Endpoint(handler: handler, parameters: parameters, bodyLimit: bodyLimit, preflight: preflight, runsOnLoop: onLoop, answerOnLoop: answerOnLoop))
        }
    }

    /// A registered route as a table lists it: for tests that every route has its rule.
    public struct Description: Sendable, Hashable {
        public var method: HTTPMethod
        public var pattern: String
        public var bodyLimit: Int?
        public var hasPreflight: Bool
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// A parameter that must be a UUID (`:name(uuid)`).
        case uuid(String)
    }

    /// What answers a matched request, as its route was added.
    public struct Endpoint: Sendable {
        public var handler: Handler
        /// The pattern's parameters, percent-decoded, by name (`Request.parameters`).
        public var parameters: [String: String]
        /// The request body limit, when the route set one above the server's default.
        public var bodyLimit: Int?
        /// The check of the head before a large body is read.
        public var preflight: Preflight?
        /// Whether the handler itself runs on the event loop (it never blocks).
        public var runsOnLoop: Bool
        /// Tried on the event loop before a worker is involved (see `EventLoopAnswer`).
        public var answerOnLoop: EventLoopAnswer?
    }

    /// The outcome of matching a request's method and path.
    public enum Match: Sendable {
        case found(Endpoint)
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
        case badPath(String)
    }

    private var routes: [Route] = [] {
        didSet { routeIndexesByLength = Dictionary(grouping: routes.indices, by: { routes[$0].segments.count }) }
    }
    /// The places in `routes` of the routes with each number of segments.
    private var routeIndexesByLength: [Int: [Int]] = [:]

    public init() {}

    /// Adds a route. `bodyLimit` overrides the server's default request body limit; a larger
    /// limit than the default needs a `preflight`, which decides before such a body is read.
    /// `onLoop` runs the handler on the event loop: only for handlers that never block.
    /// `answerOnLoop` is tried on the event loop first (see `EventLoopAnswer`).
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, bodyLimit: Int? = nil, preflight: Preflight? = nil, onLoop: Bool = false,
        answerOnLoop: EventLoopAnswer? = nil, _ handler: @escaping Handler
    ) {
        routes.append(Route(
            method: method, segments: Self.segments(of: pattern), handler: handler, bodyLimit: bodyLimit, preflight: preflight,
            onLoop: onLoop, answerOnLoop: answerOnLoop))
    }

    /// Every route, in the order added.
    public var descriptions: [Description] {
        routes.map { route in
            let pattern = "/" + route.segments.map { segment -> String in
                switch segment {
                case .literal(let text): text
                case .parameter(let name): ":" + name
                case .uuid(let name): ":" + name + "(uuid)"
                }
            }.joined(separator: "/")
            return Description(method: route.method, pattern: pattern, bodyLimit: route.bodyLimit, hasPreflight: route.preflight != nil)
        }
    }

    public mutating func get(_ pattern: String, onLoop: Bool = false, _ handler: @escaping Handler) {
        add(.GET, pattern, onLoop: onLoop, handler)
    }

    public mutating func post(_ pattern: String, bodyLimit: Int? = nil, preflight: Preflight? = nil, _ handler: @escaping Handler) {
        add(.POST, pattern, bodyLimit: bodyLimit, preflight: preflight, handler)
    }


    /// Finds the route for a method and raw (percent-encoded) path. `HEAD` falls back to `GET`.
    /// Where several patterns match, the most specific wins whatever the order they were added
    /// in: a literal segment beats a parameter at the first place they differ (`/live/new`
    /// before `/live/:code`).
    public func match(_ method: HTTPMethod, path: String) -> Match {
        let decoded: [String]
        switch Self.decodePath(path) {
        case .success(let segments): decoded = segments
        case .failure(let error): return .badPath(error.message)
        }
        var allowed: [HTTPMethod] = []
        // Only the routes of the path's length are tried, by their place in `routes` (a route is
        // not copied for each request); parameters are read only for the route that wins.
        var best: Int?, getFallback: Int?
        for index in routeIndexesByLength[decoded.count] ?? [] where routes[index].fits(decoded) {
            let routeMethod = routes[index].method
            if routeMethod == method {
                if best.map({ Self.isMoreSpecific(routes[index].literals, than: routes[$0].literals) }) ?? true { best = index }
                continue
            }
            if method == .HEAD && routeMethod == .GET, getFallback.map({ Self.isMoreSpecific(routes[index].literals, than: routes[$0].literals) }) ?? true {
                getFallback = index
            }
            allowed.append(routeMethod)
            if routeMethod == .GET { allowed.append(.HEAD) }
        }
        if let best { return routes[best].found(decoded) }
        if let getFallback { return routes[getFallback].found(decoded) }
        if allowed.isEmpty { return .notFound }
        return .methodNotAllowed(allowed: HTTPMethod.allCases.filter(allowed.contains))
    }

    /// Whether a pattern with these literal places is more specific than one with `other`'s.
    private static func isMoreSpecific(_ literals: [Bool], than other: [Bool]) -> Bool {
        for (mine, theirs) in zip(literals, other) where mine != theirs { return mine }
        return false
    }

    /// Whether `text` is a UUID as `UUID(uuidString:)` reads one (8-4-4-4-12 hexadecimal digits,
    /// either case), without Foundation's scanner: the router asks it of every request.
    static func isUUID(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            if count == 8 || count == 13 || count == 18 || count == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): break
                default: return false
                }
            }
            count += 1
            if count > 36 { return false }
        }
        return count == 36
    }

    /// Splits a raw path into decoded segments. An encoded `/`, a `.` or `..` segment, a bad
    /// escape or invalid UTF-8 is refused: no path can name something outside its place.
    static func decodePath(_ path: String) -> Result<[String], HTTPError> {
        guard path.hasPrefix("/") else { return .failure(HTTPError(.badRequest, "the path must start with /")) }
        var segments: [String] = []
        for raw in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst() {
            let rawText = String(decoding: raw, as: UTF8.self)
            guard let segment = PercentDecoding.decode(rawText) else {
                return .failure(HTTPError(.badRequest, "the path holds a malformed %-escape or invalid UTF-8"))
            }
            if segment.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == 0 || $0 == UInt8(ascii: "\\") }) {
                return .failure(HTTPError(.badRequest, "the path holds an encoded slash, backslash or NUL"))
            }
            if segment == "." || segment == ".." {
                return .failure(HTTPError(.badRequest, "the path holds a . or .. segment"))
            }
            segments.append(segment)
        }
        // "/" is one empty segment; a trailing slash is another: "/a/" ≠ "/a".
        return .success(segments)
    }

    static func segments(of pattern: String) -> [Segment] {
        pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().compactMap { piece in
            if piece.hasPrefix(":") && piece.hasSuffix("(uuid)") { return .uuid(String(piece.dropFirst().dropLast("(uuid)".count))) }
            if piece.hasPrefix(":") { return .parameter(String(piece.dropFirst())) }
            return .literal(String(piece))
        }.filter { $0 != .literal("") || pattern == "/" }
    }
}
