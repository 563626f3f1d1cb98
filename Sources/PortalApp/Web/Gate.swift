import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// What every portal route goes through before its handler: the reader resolved
/// (`ViewerResolver`), the route group's rule applied, forged requests refused (`ForgeryCheck`),
/// a reader's writes made known, and responses made for a signed-in reader kept out of shared
/// caches.
struct Gate: Sendable {
    let pool: ConnectionPool
    /// Read replicas for what any reader may see (`DATABASE_REPLICA_URL`), if configured.
    let replica: ConnectionPool?
    let settings: SessionSettings
    let clock: @Sendable () -> Date
    let pages: PageRenderer
    let site: SiteAddress
    /// Sessions resolved in the last few seconds (served only while the database's notices arrive).
    let viewers: ViewerCache
    /// Readers' data versions: a signed-in reader's write forgets theirs before the answer goes.
    let readers: ReaderVersions
    /// Classes' versions: a teacher's write forgets them before the answer goes.
    let classes: ClassVersions
    /// Tells the other instances of a signed-in reader's write once it is done.
    var announcer: ReaderAnnouncer?
    /// Development: every response says how many times its request waited for the database
    /// (`X-Database-Round-Trips`), so a test notices when a page starts to need more.
    var countsRoundTrips = false

    private var resolver: ViewerResolver { ViewerResolver(settings: settings, clock: clock, viewers: viewers) }
    private var forgery: ForgeryCheck { ForgeryCheck(site: site, pages: pages) }

    /// A message of the catalogue in the language the request's headers ask for (before any
    /// session is resolved: the refusals below come first).
    func say(_ key: String, _ head: RequestHead) -> String {
        pages.message(key, locale: LocaleNegotiation.choose(userSetting: nil, headers: head.headers, available: pages.templates.locales))
    }

    /// Resolves, checks and runs one request; the request's database connection is given back
    /// however it ends. A database that cannot serve now (unreachable, no connection free, a
    /// statement or lock that timed out) is a 503 with `Retry-After`, never a 500.
    func handle(_ request: Request, _ options: RouteOptions, _ handler: @Sendable (PortalRequest) throws -> Response) throws -> Response {
        do {
            return try admitAndRun(request, options, handler)
        } catch let error as PostgresError where error.isTemporarilyUnavailable {
            logUnavailable(request.head, error)
            throw HTTPError(.serviceUnavailable, "The database is busy or out of reach.", headers: ["Retry-After": "5"])
        }
    }

    private func logUnavailable(_ head: RequestHead, _ error: PostgresError) {
        FileHandle.standardError.write(Data("unavailable: \(head.method.rawValue) \(head.path): \(error)\n".utf8))
    }

    private func admitAndRun(_ request: Request, _ options: RouteOptions, _ handler: @Sendable (PortalRequest) throws -> Response) throws -> Response {
        let database = RequestDatabase(pool: pool, replica: options.readsReplica == .never ? nil : replica)
        defer { database.release() }
        let viewer = options.resolvesViewer
            ? try resolver.viewer(request, database: database, issueVisitorToken: options.issuesVisitorToken) : .anonymous
        let portal = PortalRequest(http: request, viewer: viewer, clientAddress: site.clientAddress(of: request), database: database)
        if let refusal = refusal(portal, options) { return refusal }
        if request.method.isUnsafe && !options.acceptsOtherSites {
            if options.visitorsNeedNoToken && viewer.user == nil {
                try forgery.checkSameSite(request.head)
            } else {
                try forgery.checkCSRF(request, viewer: viewer)
            }
        }
        // Reads anyone may make go to a replica once the primary has said who is asking.
        if options.readsReplica == .always || (options.readsReplica == .forVisitors && viewer.user == nil) {
            database.readFromReplica()
        }
        // Whatever a signed-in reader's form wrote, their own next page is read afresh — on
        // this instance at once, on the others when this instance's announcement arrives.
        defer {
            if request.method.isUnsafe, let user = viewer.user {
                readers.forget(user.userID)
                announcer?.announce(user.userID)
                if user.role.teaches { classes.forgetAll() }
            }
        }
        var response: Response
        do {
            response = try handler(portal)
        } catch let error as HTTPError where !options.answersWithProblem && (400..<500).contains(error.status.code) {
            // Rendered here, where the reader is known: a signed-in student's error page keeps
            // their own header.
            response = pages.errorPage(error, for: portal)
        }
        if countsRoundTrips { response.headers.set("X-Database-Round-Trips", String(database.roundTrips)) }
        if let cookie = viewer.newCSRFCookie {
            response.setCookie(SetCookie(name: settings.csrfCookieName, value: cookie, path: "/", httpOnly: true, secure: settings.secure, sameSite: .lax))
        }
        if viewer.user != nil || response.headers.contains("Set-Cookie") {
            Self.markPrivate(&response)
        }
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
            if let refusal = refusal(portal, options) {
                var headers = HTTPHeaders()
                if let location = refusal.headers["Location"] { headers.set("Location", location) }
                throw HTTPError(refusal.status, say(refusal.status == .notFound ? "error.nothing_here" : "error.sign_in_first", head), headers: headers)
            }
            if head.method.isUnsafe { try forgery.checkSameSite(head) }
        }
    }

    /// A response for one reader: no shared cache may keep it, and none may answer another
    /// reader's request with it.
    static func markPrivate(_ response: inout Response) {
        // A handler may have chosen a private policy of its own (a bundle kept by the browser).
        if !(response.headers["Cache-Control"]?.hasPrefix("private") ?? false) {
            response.headers.set("Cache-Control", "private, no-store")
        }
        if let vary = response.headers["Vary"] {
            if !vary.lowercased().contains("cookie") { response.headers.set("Vary", vary + ", Cookie") }
        } else {
            response.headers.set("Vary", "Cookie")
        }
    }

    /// The group's rule: the answer for someone who may not enter, or nil to let them in.
    func refusal(_ request: PortalRequest, _ options: RouteOptions) -> Response? {
        let user = request.user
        switch options.access {
        case .anyone, .monitoring:
            return nil
        case .admin:
            return user?.role == .admin ? nil : pages.errorPage(HTTPError(.notFound, say("error.nothing_here", request.head)), head: request.head)
        case .teacher:
            guard let user else { return signIn(request, options) }
            return user.role.teaches ? nil : pages.errorPage(HTTPError(.notFound, say("error.nothing_here", request.head)), head: request.head)
        case .signedIn:
            return user == nil ? signIn(request, options) : nil
        }
    }

    /// Turning a visitor away: to the sign-in page and back (to the page itself for a GET, to
    /// the form's `return_to` page after a form), or for the device API a 401 it can show.
    private func signIn(_ request: PortalRequest, _ options: RouteOptions) -> Response {
        if options.answersWithProblem {
            return APIResponse.problem(pages.message("api.sign_in", locale: pages.locale(for: request)), status: .unauthorized)
        }
        let back = request.method == .GET || request.method == .HEAD
            ? LocalPath.validated(request.returnPath) ?? "/"
            : LocalPath.validated(FormFields(body: request.body)["return_to"]) ?? "/"
        return .redirect(to: LocalPath.signIn(returningTo: back))
    }
}
