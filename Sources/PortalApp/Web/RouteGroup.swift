/// The groups routes belong to, each with its rule: who may enter and how the gate treats a
/// request before the handler runs. A route names its group in its declaration (`PortalRoute`).
enum RouteGroup: Sendable, CaseIterable {
    /// Health and readiness: served without the gate (no cookies, no session).
    case infrastructure
    /// `/metrics`: a bearer token or an allowed client address; no gate.
    case monitoring
    /// Shared pages kept for visitors and read from a replica when there is one; no cookie is
    /// handed out here.
    case catalogue
    /// The same bytes for everyone, so nobody's cookie is even looked at.
    case sameForEveryone
    /// LTI's login initiation and launch, posted from an LMS's page (its own state, nonce and
    /// signatures are the proof, not a cookie).
    case fromOtherSites
    /// Addresses whose secret token is the proof (a calendar feed a calendar application polls):
    /// no cookie is looked at, and the database checks the token itself.
    case byToken
    /// Content's pictures: the same for everyone, from a replica when there is one.
    case pictures
    /// Starting a session from the cached exam page, which carries no per-visitor token.
    case startFromCachedPage
    /// Pages with forms for visitors too: a CSRF cookie for those who have none.
    case visitors
    /// A signed-in account's own pages; a visitor is sent to sign in.
    case members
    /// The device API's downloads (bundles, change feeds): the same for every student, from a
    /// replica; a visitor is told to sign in, in JSON.
    case deviceDownloads
    /// The device API; a visitor is told to sign in, in JSON.
    case device
    /// Teachers and admins; a student finds nothing there.
    case teachers
    /// Admins only; everyone else finds nothing there.
    case admins

    /// Whether the gate runs before the handler (everything but health and monitoring).
    var isGated: Bool { self != .infrastructure && self != .monitoring }

    /// The group's rule.
    var options: RouteOptions {
        switch self {
        case .infrastructure: RouteOptions(access: .anyone, issuesVisitorToken: false, resolvesViewer: false)
        case .monitoring: RouteOptions(access: .monitoring, issuesVisitorToken: false, resolvesViewer: false)
        case .catalogue: RouteOptions(access: .anyone, issuesVisitorToken: false, readsReplica: .forVisitors)
        case .sameForEveryone: RouteOptions(access: .anyone, issuesVisitorToken: false, resolvesViewer: false)
        case .fromOtherSites: RouteOptions(access: .anyone, issuesVisitorToken: false, resolvesViewer: false, acceptsOtherSites: true)
        case .byToken: RouteOptions(access: .anyone, issuesVisitorToken: false, resolvesViewer: false, acceptsOtherSites: true)
        case .pictures: RouteOptions(access: .anyone, issuesVisitorToken: false, resolvesViewer: false, readsReplica: .always)
        case .startFromCachedPage: RouteOptions(access: .anyone, issuesVisitorToken: false, visitorsNeedNoToken: true)
        case .visitors: RouteOptions(access: .anyone)
        case .members: RouteOptions(access: .signedIn)
        case .deviceDownloads: RouteOptions(access: .signedIn, issuesVisitorToken: false, answersWithProblem: true, readsReplica: .always)
        case .device: RouteOptions(access: .signedIn, issuesVisitorToken: false, answersWithProblem: true)
        case .teachers: RouteOptions(access: .teacher)
        case .admins: RouteOptions(access: .admin)
        }
    }
}
