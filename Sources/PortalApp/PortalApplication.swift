import Foundation
import Synchronization
import HTTPClient
import HTTPServer
import PostgresClient
import RedisClient
import TemplateEngine

/// The portal: its routes on top of the HTTP server and the database pool.
public final class PortalApplication: Sendable {
    public let configuration: PortalConfiguration
    public let database: ConnectionPool?
    /// Read replicas (`DATABASE_REPLICA_URL`) for what any reader may see, if configured.
    public let replica: ConnectionPool?
    public let metrics = ServerMetrics()
    let pages: PageRenderer
    let cache = PageCache()
    /// The database's notices (catalogue, sessions, leaderboard) for what is kept in memory.
    let events: DatabaseEvents
    let viewers = ViewerCache()
    let versions: SharedVersions
    /// Signed-in readers' data versions (forgotten on their notices and on their own writes).
    let readers: ReaderVersions
    /// Classes' versions with their members (forgotten on their notices and teachers' writes).
    let classes: ClassVersions
    /// The catalogue's domains for dashboards, kept per catalogue version.
    let domainFacts = DomainFactsCache()
    let clock: @Sendable () -> Date
    let hashing = HashLimiter()
    private let draining = Atomic<Bool>(false)
    let site: SiteAddress
    let monitoring: MonitoringAccess
    let refresher: LeaderboardRefresher?
    /// Fits students' FSRS weights to their histories, in the background.
    let fitter: WeightFitter?
    let scoreboard: LiveScoreboard?
    let hub: LiveHub
    /// Outbound HTTPS (platforms, identity providers).
    let outbound: HTTPClient
    /// Access tokens for the LMSs' services (grades, rosters).
    let platformTokens: PlatformTokens?
    /// Graded LTI sessions' scores on their way to the platforms.
    let scoreSender: ScoreSender?
    /// What anonymous logins leave behind, removed every minute.
    let pruner: AnonymousStatePruner?
    /// Tells the other instances whose data this one wrote.
    let announcer: ReaderAnnouncer?

    /// `databaseOverrides` replace keywords of `DATABASE_URL` (tests point it at their own database).
    /// `clock` is the time the application sees (tests move it forward to expire sessions).
    public init(configuration: PortalConfiguration, databaseOverrides: [String: String] = [:], clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.configuration = configuration
        self.clock = clock
        site = SiteAddress(publicOrigin: configuration.publicOrigin, trustedProxies: configuration.trustedProxies)
        monitoring = MonitoringAccess(token: configuration.metricsToken, allowed: configuration.metricsAllowed, site: site)
        let templates = try TemplateSet(directory: configuration.templatesDirectory, mode: configuration.development ? .development : .production)
        pages = PageRenderer(templates: templates, clock: clock, fragments: FragmentCache(clock: clock))
        let naming: PostgresConnection.StatementNaming = configuration.transactionPooler ? .unnamed : .hashed
        database = configuration.databaseURL.map {
            ConnectionPool(.init(
                url: $0, overrides: databaseOverrides, maxConnections: configuration.databaseConnections,
                checkoutTimeout: .seconds(5), naming: naming))
        }
        replica = configuration.databaseReplicaURL.map {
            ConnectionPool(.init(
                url: $0, overrides: databaseOverrides, maxConnections: configuration.databaseConnections,
                checkoutTimeout: .seconds(5), naming: naming))
        }
        events = DatabaseEvents(url: configuration.eventsURL, overrides: databaseOverrides)
        viewers.follow(events)
        versions = SharedVersions(clock: clock)
        versions.follow(events)
        // This instance's name in its announcements of readers' writes (ReaderAnnouncer).
        let instance = String(UUID().uuidString.prefix(8)).lowercased()
        readers = ReaderVersions(clock: clock)
        readers.follow(events, instance: instance)
        classes = ClassVersions(clock: clock)
        classes.follow(events, instance: instance)
        let endpoint = configuration.redisURL.flatMap(RedisEndpoint.init(url:))
        // Short waits and a breaker: a Redis that is down or frozen costs a live page a second at
        // most, and nothing at all for the next few seconds.
        scoreboard = endpoint.map {
            LiveScoreboard(redis: RedisPool($0, maxConnections: max(2, configuration.databaseConnections), timeout: .seconds(1), cooldown: 3))
        }
        let pool = database
        hub = LiveHub(endpoint: endpoint, clock: clock) { event in
            pool.map { LivePages.finish(event, database: $0) } ?? true
        }
        fitter = database.map { WeightFitter(database: $0, clock: clock) }
        let outbound = HTTPClient(configuration: configuration.outbound)
        self.outbound = outbound
        if let database {
            let tokens = PlatformTokens(client: outbound, database: database, clock: clock)
            platformTokens = tokens
            scoreSender = ScoreSender(database: database, tokens: tokens, client: outbound)
        } else {
            platformTokens = nil
            scoreSender = nil
        }
        pruner = database.map(AnonymousStatePruner.init)
        announcer = database.map { ReaderAnnouncer(database: $0, instance: instance) }
        refresher = database.flatMap { database in
            configuration.leaderboardRefresh > 0
                ? LeaderboardRefresher(database: database, interval: configuration.leaderboardRefresh, instance: "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UUID().uuidString.prefix(8))")
                : nil
        }
    }

    /// Starts the background jobs (the leaderboard refresh, the live-event clock and its Redis
    /// subscription); `serve` calls it.
    public func startBackgroundJobs() {
        events.start()
        refresher?.start()
        fitter?.start()
        scoreSender?.start()
        pruner?.start()
        announcer?.start()
        hub.start()
    }

    /// Sends the graded sessions' scores that are due now (what the background job does every
    /// few seconds); how many went and how many must wait.
    @discardableResult
    public func sendDueScores() -> (sent: Int, failed: Int) { scoreSender?.sendDue() ?? (0, 0) }

    /// Removes expired anonymous state now (what the background job does every minute); how
    /// many rows went.
    @discardableResult
    public func pruneAnonymousState() -> Int { pruner?.prune() ?? 0 }

    /// Looks now at the history of every student queued for a fit (what the background job does
    /// as students are queued); returns how many were fitted.
    @discardableResult
    public func fitWaitingSchedules() -> Int {
        (fitter?.drain() ?? []).filter { if case .fitted = $0 { true } else { false } }.count
    }

    /// Stops the background jobs.
    public func stopBackgroundJobs() {
        events.stop()
        refresher?.stop()
        fitter?.stop()
        scoreSender?.stop()
        pruner?.stop()
        announcer?.stop()
        hub.stop()
    }

    /// Every route of the portal, each in a group that declares who may enter.
    public func makeRouter() -> Router { makePortalRouter().router }

    /// Every route with the rule of its group: method, pattern and who may enter (`anyone`,
    /// `signedIn`, `teacher`, `admin`, `monitoring`), and whether a visitor is answered with a
    /// JSON problem rather than sent to sign in. Tests hold every registered route to its rule.
    public func routeTable() -> [(method: String, pattern: String, access: String, answersWithProblem: Bool)] {
        makePortalRouter().rules.map { ($0.method.rawValue, $0.pattern, $0.access.rawValue, $0.answersWithProblem) }
    }

    /// The routes with their rules (`rules` lists each route's group rule).
    func makePortalRouter() -> PortalRouter {
        var sessionSettings = SessionSettings()
        sessionSettings.secure = configuration.servedOverHTTPS
        sessionSettings.idleTimeout = configuration.sessionIdleTimeout
        sessionSettings.absoluteLifetime = configuration.sessionLifetime
        let pages = self.pages, cache = self.cache, clock = self.clock, site = self.site, versions = self.versions
        let domainFacts = self.domainFacts, readers = self.readers, classes = self.classes, outbound = self.outbound
        let platformTokens = self.platformTokens, scoreSender = self.scoreSender
        // Without a database only the infrastructure routes exist; the gate is never used then.
        var gate = Gate(
            pool: database ?? ConnectionPool(.init(url: "")), replica: replica, settings: sessionSettings, clock: clock, pages: pages, site: site,
            viewers: viewers, readers: readers, classes: classes)
        gate.announcer = announcer
        gate.countsRoundTrips = configuration.development
        var routes = PortalRouter(gate: gate)
        let metrics = self.metrics, monitoring = self.monitoring, database = self.database
        routes.infrastructure(.GET, "/healthz", access: .anyone, onLoop: true) { _ in .text("ok\n") }
        routes.infrastructure(.GET, "/metrics", access: .monitoring) { request in
            try monitoring.admit(request)
            var response = Response.text(metrics.prometheusText())
            response.headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            response.headers.set("Cache-Control", "no-store")
            return response
        }
        routes.infrastructure(.GET, "/readyz", access: .anyone) { [self] _ in
            guard !isDraining else {
                throw HTTPError(.serviceUnavailable, "This instance is shutting down.", headers: ["Retry-After": "5"])
            }
            guard let database, database.ping() else {
                throw HTTPError(.serviceUnavailable, "The database is not reachable.", headers: ["Retry-After": "5"])
            }
            return .text(hub.isDegraded ? "ready; live events degraded: Redis is out of reach\n" : "ready\n")
        }
        guard let database else { return routes }
        let formClock = FormClock()
        let accounts = AccountPages(pages: pages, settings: sessionSettings, hashing: hashing, clock: clock, viewers: viewers,
                                    registrationsPerHour: configuration.registrationsPerHour)
        let starter = SessionStart(
            pages: pages, settings: sessionSettings, clock: clock, versions: versions, selections: ExamSelection.kept(clock: clock))
        let sessions = SessionPages(
            pages: pages, settings: sessionSettings, clock: clock, formClock: formClock, versions: versions, readers: readers, fitter: fitter,
            scores: scoreSender)
        let reports = QuestionReports(pages: pages)
        let live = LivePages(
            database: database, pages: pages, settings: sessionSettings, clock: clock, scoreboard: scoreboard, hub: hub, site: site,
            bulkhead: Bulkhead(limit: max(2, configuration.server.workers / 2)))
        let schools = SchoolPages(pages: pages, clock: clock, starter: starter, site: site, classes: classes)
        let admin = AdminPages(pages: pages, clock: clock, publicDirectory: configuration.publicDirectory, site: site, outbound: outbound)
        let offline = OfflinePages(pages: pages, clock: clock)
        let progress = ProgressUpload(clock: clock, pages: pages, fitter: fitter)
        let device = DeviceAPI(pages: pages)

        let copies = VisitorCopies(pages: pages, cache: cache, versions: versions, sessionCookie: sessionSettings.cookieName)
        let readerCopies = ReaderCopies(
            pages: pages, viewers: viewers, versions: versions, readers: readers, classes: classes, sessionCookie: sessionSettings.cookieName, clock: clock,
            countsRoundTrips: configuration.development)
        // A visitor's copy, else the signed-in reader's own.
        func either(_ visitor: @escaping QuickHandler, _ reader: @escaping QuickHandler) -> QuickHandler { { visitor($0) ?? reader($0) } }
        // The catalogue: shared pages, cached for visitors (read from a replica when there is
        // one); no cookie is handed out here.
        routes.anyone(RouteOptions(access: .anyone, issuesVisitorToken: false, readsReplica: .forVisitors)) { catalogue in
            catalogue.get("/", quick: either(copies.quick(HomePage.visitorCopy), readerCopies.quick(HomePage.readerCopy)), HomePage.handler(pages: pages, cache: cache, versions: versions))
            catalogue.get(
                "/exams/:region/:exam", quick: either(copies.quick(ExamPage.visitorCopy), readerCopies.quick(ExamPage.readerCopy)),
                ExamPage.handler(pages: pages, cache: cache, versions: versions, readers: readers))
            catalogue.get(
                "/exams/:region/:exam/leaderboard", quick: either(copies.quick(LeaderboardPage.visitorCopy), readerCopies.quick(LeaderboardPage.readerCopy)),
                LeaderboardPage.handler(pages: pages, cache: cache, versions: versions, readers: readers))
            catalogue.get("/offline/manifest.json", offline.manifest)
        }
        // The offline shell: the same bytes for everyone, so nobody's cookie is even looked at.
        routes.anyone(RouteOptions(access: .anyone, issuesVisitorToken: false, resolvesViewer: false)) { shell in
            shell.get("/offline/study", OfflineStudyPage.handler(pages: pages))
            shell.get("/lti/jwks.json", LTIKeys().jwks)
        }
        // LTI's login initiation, from an LMS's page (a GET or a cross-site POST), and the
        // launch the platform posts back (its id_token is the proof, not a cookie).
        routes.anyone(RouteOptions(access: .anyone, issuesVisitorToken: false, resolvesViewer: false, acceptsOtherSites: true)) { lti in
            let login = LTILogin(pages: pages, site: site)
            lti.get("/lti/login", login.initiate)
            lti.post("/lti/login", login.initiate)
            let launch = LTILaunch(pages: pages, site: site, clock: clock, accounts: accounts, starter: starter)
            lti.post("/lti/launch", launch.launch)
            lti.get("/lti/continue/:token", launch.continueInWindow)
            // Deep linking's choice, inside the platform's frame: its token admits the instructor.
            let deepLinking = LTIDeepLinking(pages: pages, site: site, clock: clock)
            lti.get("/lti/deep-link/:token", deepLinking.choose)
            lti.post("/lti/deep-link/:token", deepLinking.answer)
        }
        // Content's pictures: the same for everyone, from a replica when there is one.
        routes.anyone(RouteOptions(access: .anyone, issuesVisitorToken: false, resolvesViewer: false, readsReplica: .always)) { pictures in
            pictures.get("/content-images/:file", ContentImageFiles(pages: pages).image)
        }
        // Starting a session from the cached exam page, which carries no per-visitor token.
        routes.anyone(RouteOptions(access: .anyone, issuesVisitorToken: false, visitorsNeedNoToken: true)) { start in
            start.post("/sessions", starter.start)
        }
        // Pages with forms for visitors too: a CSRF cookie for those who have none.
        let singleSignOn = SingleSignOn(pages: pages, site: site, clock: clock, accounts: accounts)
        routes.anyone { visitors in
            accounts.addPublicRoutes(to: &visitors)
            visitors.get("/auth/:provider", singleSignOn.start)
            visitors.get("/auth/:provider/callback", singleSignOn.callback)
            visitors.get("/auth/:provider/finish", singleSignOn.finish)
            sessions.addRoutes(to: &visitors, readerCopies: readerCopies)
            live.addPublicRoutes(to: &visitors)
            schools.addPublicRoutes(to: &visitors)
            visitors.get("/api/me", device.me)
            visitors.get("/language/:code", LanguageSwitch(pages: pages, viewers: viewers, secureCookies: configuration.servedOverHTTPS).choose)
        }
        routes.members(RouteOptions(access: .signedIn)) { members in
            accounts.addMemberRoutes(to: &members)
            members.post("/me/sso/unlink", singleSignOn.unlink)
            members.get(
                "/me", quick: readerCopies.quick(DashboardPage.readerCopy),
                DashboardPage.handler(pages: pages, clock: clock, versions: versions, readers: readers, domains: domainFacts, fitter: fitter))
            members.post("/questions/:id(uuid)/reports", reports.report)
            members.post("/exams/:region/:exam/date", ExamDateForm(pages: pages, clock: clock).save)
            live.addMemberRoutes(to: &members)
            schools.addMemberRoutes(to: &members)
        }
        // The device API: a visitor is told to sign in, in JSON. Bundles and change feeds are
        // the same for every student: a replica serves them.
        routes.members(RouteOptions(access: .signedIn, issuesVisitorToken: false, answersWithProblem: true, readsReplica: .always)) { api in
            api.get("/offline/exams/:region/:file", offline.bundle)
            api.get("/api/exams/:region/:exam/changes", offline.changes)
        }
        routes.members(RouteOptions(access: .signedIn, issuesVisitorToken: false, answersWithProblem: true)) { api in
            api.get("/api/exams/:region/:exam/schedule", device.schedule)
            api.post("/api/progress", bodyLimit: ProgressUpload.bodyLimit, progress.upload)
        }
        routes.members(RouteOptions(access: .teacher)) { teachers in
            live.addHostRoutes(to: &teachers)
            schools.addTeacherRoutes(to: &teachers, readerCopies: readerCopies)
            if let tokens = platformTokens {
                teachers.get("/teach/classes/:id(uuid)/roster", LTIRoster(pages: pages, tokens: tokens, client: outbound).roster)
            }
        }
        routes.members(RouteOptions(access: .admin)) { admins in
            admin.addRoutes(to: &admins)
        }
        return routes
    }

    /// Builds the server with the portal's routes and static files.
    public func makeServer() throws -> HTTPServer {
        var staticFiles = FileManager.default.fileExists(atPath: configuration.publicDirectory)
            ? try StaticFiles(directory: configuration.publicDirectory) : StaticFiles()
        if let worker = ServiceWorkerScript.stamped(publicDirectory: configuration.publicDirectory, templatesDirectory: configuration.templatesDirectory) {
            staticFiles.add(path: "/sw.js", bytes: worker, contentType: "text/javascript; charset=utf-8")
        }
        let pages = self.pages, site = self.site
        var server = configuration.server
        // Behind a trusted proxy every client shares its address: the proxy has its own limits.
        server.isExemptFromAddressLimit = { address in site.isTrustedProxy(address) }
        if configuration.publicOrigin?.hasPrefix("https://") == true {
            server.securityHeaders.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        }
        return HTTPServer(
            configuration: server, router: makeRouter(), staticFiles: staticFiles, metrics: metrics,
            errorResponder: { error, head in pages.serverErrorPage(error, head: head) })
    }

    /// Whether the instance is shutting down: `/readyz` then answers 503 so a load balancer
    /// stops sending before the listener closes.
    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// Whether the database's notices are arriving (so what is kept in memory is served).
    public var isListeningToDatabase: Bool { events.isListening }

    /// Starts draining (SIGTERM): `/readyz` answers 503 from now on.
    public func beginDraining() { draining.store(true, ordering: .relaxed) }
}
