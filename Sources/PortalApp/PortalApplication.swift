import Foundation
import HTTPServer
import PostgresClient
import RedisClient
import TemplateEngine

/// The portal: its routes on top of the HTTP server and the database pool.
public final class PortalApplication: Sendable {
    public let configuration: PortalConfiguration
    public let database: ConnectionPool?
    public let metrics = ServerMetrics()
    let pages: PageRenderer
    let cache = PageCache()
    let clock: @Sendable () -> Date
    let throttle = LoginThrottle()
    let hashing = HashLimiter()
    let refresher: LeaderboardRefresher?
    let scoreboard: LiveScoreboard?
    let hub: LiveHub

    /// `databaseOverrides` replace keywords of `DATABASE_URL` (tests point it at their own database).
    /// `clock` is the time the application sees (tests move it forward to expire sessions).
    public init(configuration: PortalConfiguration, databaseOverrides: [String: String] = [:], clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.configuration = configuration
        self.clock = clock
        let templates = try TemplateSet(directory: configuration.templatesDirectory, mode: configuration.development ? .development : .production)
        pages = PageRenderer(templates: templates, clock: clock)
        database = configuration.databaseURL.map {
            ConnectionPool(.init(
                url: $0, overrides: databaseOverrides, maxConnections: configuration.databaseConnections,
                checkoutTimeout: .seconds(5)))
        }
        let endpoint = configuration.redisURL.flatMap(RedisEndpoint.init(url:))
        scoreboard = endpoint.map { LiveScoreboard(redis: RedisPool($0, maxConnections: max(2, configuration.databaseConnections))) }
        let pool = database
        hub = LiveHub(endpoint: endpoint, clock: clock) { event in
            if let pool { LivePages.finish(event, database: pool, clock: clock) }
        }
        refresher = database.flatMap { database in
            configuration.leaderboardRefresh > 0
                ? LeaderboardRefresher(database: database, interval: configuration.leaderboardRefresh, instance: "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UUID().uuidString.prefix(8))")
                : nil
        }
    }

    /// Starts the background jobs (the leaderboard refresh, the live-event clock and its Redis
    /// subscription); `serve` calls it.
    public func startBackgroundJobs() {
        refresher?.start()
        hub.start()
    }

    /// Stops the background jobs.
    public func stopBackgroundJobs() {
        refresher?.stop()
        hub.stop()
    }

    /// Every route of the portal.
    public func makeRouter() -> Router {
        var router = Router()
        let metrics = self.metrics
        let database = self.database
        router.get("/healthz", onLoop: true) { _ in .text("ok\n") }
        router.get("/metrics") { _ in
            var response = Response.text(metrics.prometheusText())
            response.headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            return response
        }
        router.get("/readyz") { _ in
            guard let database, database.ping() else {
                throw HTTPError(.serviceUnavailable, "The database is not reachable.", headers: ["Retry-After": "5"])
            }
            return .text("ready\n")
        }
        guard let database else { return router }
        var sessionSettings = SessionSettings()
        sessionSettings.secure = configuration.servedOverHTTPS
        sessionSettings.idleTimeout = configuration.sessionIdleTimeout
        sessionSettings.absoluteLifetime = configuration.sessionLifetime
        let authentication = Authentication(database: database, settings: sessionSettings, clock: clock)
        let pages = self.pages, cache = self.cache
        let accounts = AccountPages(
            database: database, pages: pages, settings: sessionSettings, throttle: throttle, hashing: hashing, clock: clock)
        // Every page knows its viewer, and every unsafe request must carry its CSRF token.
        router.group(middleware: [authentication.middleware(issueVisitorToken: false)]) { catalogue in
            catalogue.get("/", HomePage.handler(database: database, pages: pages, cache: cache))
            catalogue.get("/exams/:region/:exam", ExamPage.handler(database: database, pages: pages, cache: cache))
            catalogue.get("/exams/:region/:exam/leaderboard", LeaderboardPage.handler(database: database, pages: pages, cache: cache))
            OfflinePages(database: database, pages: pages, clock: clock).addRoutes(to: &catalogue)
            catalogue.get("/offline/study", OfflineStudyPage.handler(pages: pages))
        }
        let starter = SessionStart(database: database, pages: pages, settings: sessionSettings, clock: clock)
        router.group(middleware: [authentication.middleware(issueVisitorToken: false, visitorsNeedNoToken: true)]) { start in
            start.post("/sessions") { request in try starter.start(request) }
        }
        let sessions = SessionPages(database: database, pages: pages, settings: sessionSettings, clock: clock)
        let reports = QuestionReports(database: database, pages: pages)
        let live = LivePages(database: database, pages: pages, settings: sessionSettings, clock: clock, scoreboard: scoreboard, hub: hub)
        router.group(middleware: [authentication.middleware(issueVisitorToken: true)]) { accountPages in
            accounts.addRoutes(to: &accountPages)
            sessions.addRoutes(to: &accountPages)
            accountPages.get("/me", DashboardPage.handler(database: database, pages: pages, clock: clock))
            accountPages.post("/questions/:id/reports") { request in try reports.report(request) }
            live.addRoutes(to: &accountPages)
            SchoolPages(database: database, pages: pages, clock: clock, starter: starter).addRoutes(to: &accountPages)
            AdminPages(database: database, pages: pages, clock: clock).addRoutes(to: &accountPages)
            let progress = ProgressUpload(database: database, clock: clock)
            accountPages.post("/api/progress", bodyLimit: ProgressUpload.bodyLimit) { request in try progress.upload(request) }
            DeviceAPI(database: database, pages: pages).addRoutes(to: &accountPages)
        }
        return router
    }

    /// Builds the server with the portal's routes and static files.
    public func makeServer() throws -> HTTPServer {
        var staticFiles = FileManager.default.fileExists(atPath: configuration.publicDirectory)
            ? try StaticFiles(directory: configuration.publicDirectory) : StaticFiles()
        if let worker = ServiceWorkerScript.stamped(publicDirectory: configuration.publicDirectory, templatesDirectory: configuration.templatesDirectory) {
            staticFiles.add(path: "/sw.js", bytes: worker, contentType: "text/javascript; charset=utf-8")
        }
        let pages = self.pages
        return HTTPServer(
            configuration: configuration.server, router: makeRouter(), staticFiles: staticFiles, metrics: metrics,
            errorResponder: { error, head in pages.errorPage(error, head: head) })
    }
}
