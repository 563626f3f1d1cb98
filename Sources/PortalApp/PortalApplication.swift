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
    /// What each retention choice would cost each student, worked out in the background.
    let estimates: WorkloadEstimates

    /// `databaseOverrides` replace keywords of `DATABASE_URL` (tests point it at their own database).
    /// `clock` is the time the application sees (tests move it forward to expire sessions).
    public init(configuration: PortalConfiguration, databaseOverrides: [String: String] = [:], clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.configuration = configuration
        self.clock = clock
        site = SiteAddress(publicOrigin: configuration.publicOrigin, trustedProxies: configuration.trustedProxies)
        monitoring = MonitoringAccess(token: configuration.metricsToken, allowed: configuration.metricsAllowed, site: site)
        let templateMode: TemplateSet.Mode = configuration.development ? (configuration.rereadsTemplates ? .development : .strict) : .production
        let templates = try TemplateSet(directory: configuration.templatesDirectory, mode: templateMode)
        pages = PageRenderer(templates: templates, clock: clock, fragments: FragmentCache(clock: clock))
        estimates = WorkloadEstimates(pages: pages)
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
        pruner = database.map { AnonymousStatePruner(database: $0, retentionDays: configuration.guestRetentionDays) }
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
        estimates.start()
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

    /// Retention's purge now (the background job does it hourly); how many rows went.
    public func purgeExpiredData() -> Int { pruner?.purgeExpired().total ?? 0 }

    /// Looks now at the history of every student queued for a fit (what the background job does
    /// as students are queued); returns how many were fitted.
    @discardableResult
    public func fitWaitingSchedules() -> Int {
        (fitter?.drain() ?? []).filter { if case .fitted = $0 { true } else { false } }.count
    }

    /// Works out every queued workload estimate now (what the background job does as students
    /// open their study rhythm); returns how many.
    @discardableResult
    public func estimateWorkloads() -> Int { estimates.drain() }

    /// Stops the background jobs.
    public func stopBackgroundJobs() {
        events.stop()
        refresher?.stop()
        fitter?.stop()
        scoreSender?.stop()
        pruner?.stop()
        announcer?.stop()
        estimates.stop()
        hub.stop()
    }

    /// Every route of the portal (each feature's `…Routes`), each in a group that declares who
    /// may enter.
    public func makeRouter() -> Router { makePortalRouter().router }

    /// Every route with the rule of its group: its name, method, pattern and who may enter
    /// (`anyone`, `signedIn`, `teacher`, `admin`, `monitoring`), and whether a visitor is
    /// answered with a JSON problem rather than sent to sign in. Tests visit every route with it.
    public func routeTable() -> [(name: String, method: String, pattern: String, access: String, answersWithProblem: Bool)] {
        makePortalRouter().rules.map { ($0.name, $0.method.rawValue, $0.pattern, $0.access.rawValue, $0.answersWithProblem) }
    }

    /// The routes with their rules.
    func makePortalRouter() -> PortalRouter {
        var sessionSettings = SessionSettings()
        sessionSettings.secure = configuration.servedOverHTTPS
        sessionSettings.idleTimeout = configuration.sessionIdleTimeout
        sessionSettings.absoluteLifetime = configuration.sessionLifetime
        // Without a database only the infrastructure routes exist; the gate is never used then.
        let gate = Gate(
            pool: database ?? ConnectionPool(.init(url: "")), replica: replica, settings: sessionSettings, clock: clock, pages: pages, site: site,
            viewers: viewers, writes: ReaderWrites(readers: readers, classes: classes, announcer: announcer),
            countsRoundTrips: configuration.development)
        let hub = self.hub
        let infrastructure = InfrastructureRoutes(
            metrics: metrics, monitoring: monitoring, database: database, isDraining: { [self] in isDraining }, liveEventsDegraded: { hub.isDegraded })
        // Without a database only the infrastructure routes exist.
        let features = database.map { makeRoutes(database: $0, sessionSettings) } ?? []
        return PortalRouter(gate: gate, routes: infrastructure.routes + features)
    }

    /// Every feature's routes, their handlers made with what they share.
    /// The account pages' routes: sign-in, registration, recovery, settings, rhythm and the rest.
    private func makeAccountRoutes(
        _ accounts: AccountPages, _ sessionSettings: SessionSettings, wording: MailWording?, rhythm: StudyRhythmPages
    ) -> AccountRoutes {
        let pages = self.pages, clock = self.clock, site = self.site
        return AccountRoutes(
            pages: pages, accounts: accounts,
            recovery: PasswordRecovery(pages: pages, accounts: accounts, hashing: hashing, mailEnabled: wording != nil),
            mailRecovery: wording.map { MailRecovery(pages: pages, accounts: accounts, hashing: hashing, wording: $0) },
            emailAddresses: wording.map { EmailAddressPages(pages: pages, accounts: accounts, wording: $0) },
            dataDownload: DataDownload(pages: pages, clock: clock, inlineAnswers: configuration.dataExportInlineAnswers),
            deletion: AccountDeletionPages(pages: pages, settings: sessionSettings, hashing: hashing, viewers: viewers),
            privacy: PrivacyNotice(pages: pages, retentionDays: configuration.guestRetentionDays, mailEnabled: wording != nil),
            rhythm: rhythm, calendarFeed: CalendarFeed(pages: pages, site: site), reminders: ReminderPages(pages: pages, rhythm: rhythm),
            push: PushPages(pages: pages), resetCodes: ResetCodeIssuer(pages: pages, clock: clock, site: site),
            singleSignOn: SingleSignOn(pages: pages, site: site, clock: clock, accounts: accounts))
    }

    private func makeRoutes(database: ConnectionPool, _ sessionSettings: SessionSettings) -> [PortalRoute] {
        let pages = self.pages, clock = self.clock, site = self.site, versions = self.versions
        let formClock = FormClock()
        let keeper = PageKeeper(
            pages: pages, visitorPages: cache, viewers: viewers, versions: versions, readers: readers, classes: classes,
            sessionCookie: sessionSettings.cookieName, guestCookie: sessionSettings.guestCookieName, clock: clock,
            countsRoundTrips: configuration.development)
        let accounts = AccountPages(pages: pages, settings: sessionSettings, hashing: hashing, clock: clock, viewers: viewers,
                                    registrationsPerHour: configuration.registrationsPerHour, mailEnabled: configuration.mail != nil)
        // Without a mail server, nothing offers what needs e-mail: its routes answer 404.
        let wording = configuration.mail.map { _ in MailWording(pages: pages) }
        let starter = SessionStart(
            pages: pages, settings: sessionSettings, clock: clock, versions: versions, selections: ExamSelection.kept(clock: clock))
        let hub = self.hub
        let rhythm = StudyRhythmPages(pages: pages, site: site, estimates: estimates, mailEnabled: wording != nil)
        let exam = ExamPage.handler(pages: pages, keeper: keeper)
        let web = WebRoutes(
            design: DesignPage.Handlers(pages: pages, publicDirectory: configuration.publicDirectory, development: configuration.development),
            language: LanguageSwitch(pages: pages, viewers: viewers, secureCookies: configuration.servedOverHTTPS))
        let catalogue = CatalogRoutes(keeper: keeper, home: HomePage.handler(pages: pages, keeper: keeper), exam: exam, pictures: ContentImageFiles(pages: pages))
        let leaderboard = LeaderboardRoutes(keeper: keeper, leaderboard: LeaderboardPage.handler(pages: pages, keeper: keeper))
        let study = StudyRoutes(
            keeper: keeper, starter: starter,
            sessions: SessionPages(
                pages: pages, settings: sessionSettings, clock: clock, formClock: formClock, keeper: keeper, fitter: fitter, scores: scoreSender),
            reports: QuestionReports(pages: pages), examDate: ExamDateForm(pages: pages, clock: clock), exam: exam,
            dashboard: DashboardPage.handler(pages: pages, keeper: keeper, clock: clock, domains: domainFacts, fitter: fitter),
            review: ReviewPage.handler(pages: pages, clock: clock, versions: versions, domains: domainFacts))
        let accountRoutes = makeAccountRoutes(accounts, sessionSettings, wording: wording, rhythm: rhythm)
        let live = LiveRoutes(live: LivePages(
            database: database, pages: pages, settings: sessionSettings, clock: clock, scoreboard: scoreboard, hub: hub, site: site,
            bulkhead: Bulkhead(limit: max(2, configuration.server.workers / 2))))
        let schools = SchoolRoutes(
            keeper: keeper, schools: SchoolPages(pages: pages, clock: clock, starter: starter, site: site, keeper: keeper),
            classAccounts: ClassAccounts(pages: pages, clock: clock, site: site), requests: TeachingRequestPages(pages: pages),
            quizzes: QuizPages(pages: pages, clock: clock))
        let offline = OfflineRoutes(
            offline: OfflinePages(pages: pages, clock: clock), offlineStudy: OfflineStudyPage.handler(pages: pages), device: DeviceAPI(pages: pages),
            progress: ProgressUpload(clock: clock, pages: pages, fitter: fitter))
        let lti = LTIRoutes(
            pages: pages, login: LTILogin(pages: pages, site: site),
            launch: LTILaunch(pages: pages, site: site, clock: clock, accounts: accounts, starter: starter),
            deepLinking: LTIDeepLinking(pages: pages, site: site, clock: clock),
            roster: platformTokens.map { LTIRoster(pages: pages, tokens: $0, client: outbound) }, admin: LTIAdmin(pages: pages, site: site, clock: clock))
        let admin = AdminRoutes(
            admin: AdminPages(
                pages: pages, clock: clock, publicDirectory: configuration.publicDirectory, site: site, outbound: outbound, mailEnabled: wording != nil),
            signOn: SSOAdmin(pages: pages, site: site, clock: clock, client: outbound), teachers: TeacherQueue(pages: pages, wording: wording, site: site),
            exams: ExamAdmin(pages: pages, clock: clock))
        let features: [[PortalRoute]] = [
            web.routes, catalogue.routes, leaderboard.routes, study.routes, accountRoutes.routes, live.routes, schools.routes, offline.routes,
            lti.routes, admin.routes,
        ]
        return features.flatMap { $0 }
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
