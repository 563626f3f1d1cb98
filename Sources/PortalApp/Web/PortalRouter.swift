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
    var name: String
    var method: HTTPMethod
    var pattern: String
    var access: Access
    var answersWithProblem: Bool
}

/// The portal's routes on the HTTP server's router: every feature's declarations
/// (`PortalRoute`), each wrapped in the gate with its group's rule (infrastructure routes go
/// without), its kept copy (if any) answered on the event loop.
struct PortalRouter {
    private(set) var router = Router()
    private(set) var rules: [RouteRule] = []

    init(gate: Gate, routes: [PortalRoute]) {
        for route in routes {
            let options = route.group.options
            rules.append(RouteRule(
                name: route.name, method: route.method, pattern: route.pattern, access: options.access,
                answersWithProblem: options.answersWithProblem))
            if let answer = route.ungated {
                router.add(route.method, route.pattern, onLoop: route.name == "health") { try answer($0) }
                continue
            }
            // Pages kept in memory may be answered on the event loop; forms never are.
            let onLoop: EventLoopAnswer? = route.keptAnswer.map { kept in
                { @Sendable request in kept(request, RouteParameters(values: request.parameters)) }
            }
            router.add(
                route.method, route.pattern, bodyLimit: route.bodyLimit,
                preflight: route.bodyLimit == nil ? nil : gate.preflight(options), answerOnLoop: onLoop
            ) { request in
                let parameters = RouteParameters(values: request.parameters)
                return try gate.handle(request, options) { try route.handle($0, parameters) }
            }
        }
    }
}
