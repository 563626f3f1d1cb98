import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// What every gated portal route goes through before and after its handler, in steps with one
/// job each: the request's database handle (`RequestDatabase`), the reader behind the cookies
/// (`ViewerResolver`), who may enter (`AccessRule`), forged requests refused (`ForgeryCheck`),
/// a reader's writes made known (`ReaderWrites`) and responses for one reader kept out of shared
/// caches (`PrivacyHeaders`).
struct Gate: Sendable {
    let pool: ConnectionPool
    /// Read replicas for what any reader may see (`DATABASE_REPLICA_URL`), if configured.
    let replica: ConnectionPool?
    let pages: PageRenderer
    let site: SiteAddress
    let resolver: ViewerResolver
    let access: AccessRule
    let forgery: ForgeryCheck
    let writes: ReaderWrites
    let privacy: PrivacyHeaders
    /// Development: every response says how many times its request waited for the database
    /// (`X-Database-Round-Trips`), so a test notices when a page starts to need more.
    let countsRoundTrips: Bool

    init(
        pool: ConnectionPool, replica: ConnectionPool?, settings: SessionSettings, clock: @escaping @Sendable () -> Date, pages: PageRenderer,
        site: SiteAddress, viewers: ViewerCache, writes: ReaderWrites, countsRoundTrips: Bool
    ) {
        self.pool = pool
        self.replica = replica
        self.pages = pages
        self.site = site
        resolver = ViewerResolver(settings: settings, clock: clock, viewers: viewers)
        access = AccessRule(pages: pages)
        forgery = ForgeryCheck(site: site, pages: pages)
        self.writes = writes
        privacy = PrivacyHeaders(settings: settings)
        self.countsRoundTrips = countsRoundTrips
    }

    /// Resolves, checks and runs one request; the request's database connection is given back
    /// however it ends. A database that cannot serve now (unreachable, no connection free, a
    /// statement or lock that timed out) is a 503 with `Retry-After`, never a 500.
    func handle(_ request: Request, _ options: RouteOptions, _ handler: (PortalRequest) throws -> Response) throws -> Response {
        do {
            return try admitAndRun(request, options, handler)
        } catch let error as PostgresError where error.isTemporarilyUnavailable {
            FileHandle.standardError.write(Data("unavailable: \(request.method.rawValue) \(request.path): \(error)\n".utf8))
            throw HTTPError(.serviceUnavailable, "The database is busy or out of reach.", headers: ["Retry-After": "5"])
        }
    }

    private func admitAndRun(_ request: Request, _ options: RouteOptions, _ handler: (PortalRequest) throws -> Response) throws -> Response {
        let database = RequestDatabase(pool: pool, replica: options.readsReplica == .never ? nil : replica)
        defer { database.release() }
        let viewer = options.resolvesViewer
            ? try resolver.viewer(request, database: database, issueVisitorToken: options.issuesVisitorToken) : .anonymous
        let portal = PortalRequest(http: request, viewer: viewer, clientAddress: site.clientAddress(of: request), database: database)
        if let refusal = access.refusal(portal, options) { return refusal }
        try forgery.check(request, viewer: viewer, options)
        // Reads anyone may make go to a replica once the primary has said who is asking.
        if options.readsReplica == .always || (options.readsReplica == .forVisitors && viewer.user == nil) {
            database.readFromReplica()
        }
        defer { writes.requestEnded(request.method, viewer: viewer) }
        var response: Response
        do {
            do {
                response = try handler(portal)
            } catch let refusal as PageRefusal {
                // Worded here, in the reader's language.
                throw refusal.worded(by: pages, for: portal)
            }
        } catch let error as HTTPError where !options.answersWithProblem && (400..<500).contains(error.status.code) {
            // Rendered here, where the reader is known: a signed-in student's error page keeps
            // their own header.
            response = pages.errorPage(error, for: portal)
        }
        if countsRoundTrips { response.headers.set("X-Database-Round-Trips", String(database.roundTrips)) }
        privacy.apply(&response, viewer: viewer)
        return response
    }

    /// Decides from the head alone whether a large body may be read: the same rule as the
    /// route's group, and a same-site origin (the form's CSRF token is in the body, checked
    /// once it has arrived).
    func preflight(_ options: RouteOptions) -> Preflight {
        { head, peer in
            let database = RequestDatabase(pool: pool, replica: nil)
            defer { database.release() }
            let request = Request(head: head, remoteAddress: peer)
            let viewer = try resolver.viewer(request, database: database, issueVisitorToken: false)
            let portal = PortalRequest(http: request, viewer: viewer, clientAddress: site.clientAddress(of: request), database: database)
            if let refusal = access.refusal(portal, options) {
                var headers = HTTPHeaders()
                if let location = refusal.headers["Location"] { headers.set("Location", location) }
                let key = refusal.status == .notFound ? "error.nothing_here" : "error.sign_in_first"
                throw HTTPError(refusal.status, access.say(key, head), headers: headers)
            }
            if head.method.isUnsafe { try forgery.checkSameSite(head) }
        }
    }
}
