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
    var name: Route.Name
    var method: HTTPMethod
    var pattern: String
    var access: Access
    var answersWithProblem: Bool
}

/// The portal's routes on the HTTP server's router: every `Route.Name` with its pattern, each
/// wrapped in the gate with its group's rule (infrastructure routes go without), its
/// parameters typed into a `Route` before the gate runs, dispatched by `RouteHandlers`.
/// Without handlers (no database configured) only the infrastructure routes exist.
struct PortalRouter {
    private(set) var router = Router()
    private(set) var rules: [RouteRule] = []

    init(gate: Gate, infrastructure: InfrastructureRoutes, handlers: RouteHandlers?) {
        let held = handlers.map(Handlers.init), loopAnswer = handlers?.loopAnswer
        for name in Route.Name.allCases {
            let declaration = name.declaration, group = declaration.group, options = group.options
            rules.append(RouteRule(
                name: name, method: declaration.method, pattern: declaration.pattern, access: options.access,
                answersWithProblem: options.answersWithProblem))
            guard group.isGated else {
                router.add(declaration.method, declaration.pattern, onLoop: name == .health) { request in
                    try infrastructure.respond(to: Self.route(name, request), request)
                }
                continue
            }
            guard let handlers = held, let loopAnswer else { continue }
            // Pages kept in memory may be answered on the event loop; forms never are.
            var onLoop: EventLoopAnswer?
            if declaration.method == .GET {
                onLoop = { @Sendable request in
                    Route(name, RouteParameters(values: request.parameters)).flatMap { loopAnswer($0, request) }
                }
            }
            router.add(
                declaration.method, declaration.pattern, bodyLimit: declaration.bodyLimit,
                preflight: declaration.bodyLimit == nil ? nil : gate.preflight(options), answerOnLoop: onLoop
            ) { request in
                let route = try Self.route(name, request)
                return try gate.handle(request, options) { try handlers.all.respond(to: route, $0) }
            }
        }
    }

    /// The handlers held once by reference and shared by every route's closure (not a copy of
    /// every handler's fields in each). The kept pages the event loop answers go through
    /// `RouteHandlers.loopAnswer`, which holds only the four handlers they need.
    private final class Handlers: Sendable {
        let all: RouteHandlers
        init(_ all: RouteHandlers) { self.all = all }
    }

    /// The typed route of a request the router matched to `name`'s pattern.
    private static func route(_ name: Route.Name, _ request: Request) throws -> Route {
        // The pattern typed its UUIDs, so the router matched only well-formed ones.
        guard let route = Route(name, RouteParameters(values: request.parameters)) else {
            throw HTTPError(.notFound, "There is nothing at this address.")
        }
        return route
    }
}
