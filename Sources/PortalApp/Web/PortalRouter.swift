import ExamData
import HTTPServer

/// Who may enter a group of routes. Declared once per group, never re-typed in handlers.
enum Access: String, Sendable, CaseIterable {
    /// Visitors and everyone else.
    case anyone
    /// A signed-in account of any role; a visitor is sent to sign in (or told so, for the API).
    case signedIn
    /// Teachers and admins; a visitor is sent to sign in, a student finds nothing there (404).
    case teacher
    /// Admins only; everyone else finds nothing there (404), so the area is not even confirmed.
    case admin
    /// Monitoring (`/metrics`): a bearer token or an allowed client address.
    case monitoring
}

/// How a route group treats requests before its handlers run.
struct RouteOptions: Sendable {
    var access: Access
    /// A visitor without a CSRF cookie gets one (pages whose forms visitors send).
    var issuesVisitorToken = true
    /// A visitor's unsafe request needs only a same-site origin, no token: starting a guest
    /// session from a cached page, which carries no per-visitor token.
    var visitorsNeedNoToken = false
    /// A visitor turned away from a signed-in route gets a JSON problem (401) rather than a
    /// redirect to the sign-in page: the device API.
    var answersWithProblem = false
    /// Whether the cookies are looked at at all: a page that is the same bytes for everyone
    /// (the offline shell) is served without asking the database who is reading.
    var resolvesViewer = true
    /// Whether the handler's reads may go to a read replica: never; for visitors (the
    /// catalogue, whose signed-in readers see their own data too); always (bundles and change
    /// feeds, the same for every reader).
    var readsReplica = ReplicaReads.never
    /// Unsafe requests from other sites are taken: LTI's login and launch, posted from an LMS's
    /// page, whose own state, nonce and signatures protect them (no CSRF token or origin check).
    var acceptsOtherSites = false
}

/// Where a route group's reads may go when read replicas are configured.
enum ReplicaReads: Sendable {
    case never
    case forVisitors
    case always
}

/// One route and the rule its group declared for it.
struct RouteRule: Sendable, Hashable {
    var method: HTTPMethod
    var pattern: String
    var access: Access
    var answersWithProblem: Bool
}

/// Routes whose handlers any visitor may reach.
struct PublicRoutes {
    fileprivate var entries: [RouteEntry] = []

    /// `quick` answers a visitor on the event loop from memory when it can (`VisitorCopies`).
    mutating func get(_ pattern: String, quick: QuickHandler? = nil, _ handler: @escaping @Sendable (PortalRequest) throws -> Response) {
        entries.append(RouteEntry(method: .GET, pattern: pattern, bodyLimit: nil, quick: quick, handler: handler))
    }

    mutating func post(_ pattern: String, _ handler: @escaping @Sendable (PortalRequest) throws -> Response) {
        entries.append(RouteEntry(method: .POST, pattern: pattern, bodyLimit: nil, quick: nil, handler: handler))
    }
}

/// A route as a group collects it, before the gate wraps it.
private struct RouteEntry {
    var method: HTTPMethod
    var pattern: String
    var bodyLimit: Int?
    var quick: QuickHandler?
    var handler: @Sendable (PortalRequest) throws -> Response
}

/// Routes whose handlers get the signed-in user their group admitted.
struct MemberRoutes {
    fileprivate var entries: [RouteEntry] = []

    /// `quick` answers a signed-in reader on the event loop from memory when it can (`ReaderCopies`).
    mutating func get(
        _ pattern: String, quick: QuickHandler? = nil, _ handler: @escaping @Sendable (PortalRequest, SessionUser) throws -> Response
    ) {
        entries.append(RouteEntry(method: .GET, pattern: pattern, bodyLimit: nil, quick: quick, handler: Self.requiringUser(handler)))
    }

    /// `bodyLimit` above the server's default: the group's rule is checked from the head alone
    /// before such a body is read.
    mutating func post(_ pattern: String, bodyLimit: Int? = nil, _ handler: @escaping @Sendable (PortalRequest, SessionUser) throws -> Response) {
        entries.append(RouteEntry(method: .POST, pattern: pattern, bodyLimit: bodyLimit, quick: nil, handler: Self.requiringUser(handler)))
    }

    private static func requiringUser(
        _ handler: @escaping @Sendable (PortalRequest, SessionUser) throws -> Response
    ) -> @Sendable (PortalRequest) throws -> Response {
        { request in
            // The gate admitted only signed-in viewers; this cannot fail unless it was bypassed.
            guard let user = request.user else { throw HTTPError(.internalServerError, "A signed-in route ran without a user.") }
            return try handler(request, user)
        }
    }
}

/// The portal's routes, each registered with the rule of its group: the gate resolves the
/// viewer, applies the rule, checks CSRF and marks personal responses private before a handler
/// runs. `rules` lists every route with its rule (a test holds every registered route to one).
struct PortalRouter {
    private(set) var router = Router()
    private(set) var rules: [RouteRule] = []
    let gate: Gate

    init(gate: Gate) {
        self.gate = gate
    }

    /// Routes for everyone.
    mutating func anyone(_ options: RouteOptions = RouteOptions(access: .anyone), _ build: (inout PublicRoutes) -> Void) {
        precondition(options.access == .anyone, "public routes are for anyone")
        var routes = PublicRoutes()
        build(&routes)
        register(routes.entries, options)
    }

    /// Routes for signed-in accounts, teachers or admins.
    mutating func members(_ options: RouteOptions, _ build: (inout MemberRoutes) -> Void) {
        precondition(options.access == .signedIn || options.access == .teacher || options.access == .admin, "member routes need an account")
        var routes = MemberRoutes()
        build(&routes)
        register(routes.entries, options)
    }

    /// A route served without the gate (health and monitoring: no database, no cookies).
    mutating func infrastructure(_ method: HTTPMethod, _ pattern: String, access: Access, onLoop: Bool = false, _ handler: @escaping Handler) {
        precondition(access == .anyone || access == .monitoring, "infrastructure routes are public or for monitoring")
        router.add(method, pattern, onLoop: onLoop, handler)
        rules.append(RouteRule(method: method, pattern: pattern, access: access, answersWithProblem: false))
    }

    private mutating func register(_ entries: [RouteEntry], _ options: RouteOptions) {
        let gate = self.gate
        for entry in entries {
            let handler = entry.handler
            router.add(
                entry.method, entry.pattern, bodyLimit: entry.bodyLimit, preflight: entry.bodyLimit == nil ? nil : gate.preflight(options),
                quick: entry.quick
            ) { request in try gate.handle(request, options, handler) }
            rules.append(RouteRule(method: entry.method, pattern: entry.pattern, access: options.access, answersWithProblem: options.answersWithProblem))
        }
    }
}
