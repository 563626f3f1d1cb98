import Foundation
import HTTPServer
import PortalApp
import PostgresClient
import TestSupport

/// A running portal on a test database of its own, over a real socket, with a clock the test
/// moves: the harness of the page and HTTP tests.
public final class PortalSite {
    /// What the database holds before the test begins.
    public enum Content {
        /// Nothing but the schema.
        case nothing
        /// The mini exam (TestSupport's MiniExam: known answers).
        case miniExam
        /// The demo catalogue, as `portal seed` loads it.
        case demoCatalogue
    }

    public let database: TestDatabase
    public let server: HTTPServer
    public let clock: TestClock
    public let pool: ConnectionPool
    public let application: PortalApplication
    public let configuration: PortalConfiguration
    /// `portal auth-agent` on this database (key sets, code exchanges), when asked for.
    public let agent: AuthAgent?

    /// `content`: what the database holds first; `prepare` then runs on its owner's connection.
    /// `https`: served as over HTTPS (`__Host-` cookies, `Secure`).
    /// `live`: with Redis and the background jobs running, for live events. `environment`:
    /// settings as the server reads them (`TRUSTED_PROXIES`, `METRICS_ALLOW`, …).
    /// `throughPooler`: the app's connections go through PgBouncer in transaction mode.
    /// `listening`: the database's notices are listened to (and so the in-memory copies they
    /// keep current are served), without Redis.
    /// `agent`: with `portal auth-agent`'s work done in this process, as the portal_agent role
    /// (its `runOnce` does a round; `agentRunning` keeps it working on its own thread).
    public init(
        content: Content = .miniExam, https: Bool = false, live: Bool = false, listening: Bool = false, environment: [String: String] = [:],
        throughPooler: Bool = false, agent: Bool = false, agentRunning: Bool = false, prepare: (PostgresConnection) throws -> Void = { _ in }
    ) throws {
        switch content {
        case .nothing, .miniExam: database = try TestDatabase(migrated: true)
        case .demoCatalogue: database = try TestDatabase.demoCatalogue()
        }
        clock = TestClock(database: database)
        let owner = try database.adminConnection()
        if content == .miniExam { try MiniExam.install(owner) }
        // The copy as if seeded now: its template was seeded when the run began, minutes ago.
        if content == .demoCatalogue { try owner.execute("UPDATE exams SET content_updated_at = now()") }
        try prepare(owner)
        var configuration = try PortalConfiguration.fromEnvironment(environment)
        if live {
            guard let redis = ProcessInfo.processInfo.environment["PORTAL_TEST_REDIS_URL"] else {
                throw TestEnvironmentError("PORTAL_TEST_REDIS_URL is not set: run the tests with `make test`, which starts Redis")
            }
            configuration.redisURL = redis
            configuration.leaderboardRefresh = 0
        }
        if listening { configuration.leaderboardRefresh = 0 }
        configuration.databaseURL = database.appURL
        if throughPooler {
            guard let pooler = ProcessInfo.processInfo.environment["PORTAL_TEST_POOLER_URL"] else {
                throw TestEnvironmentError("PORTAL_TEST_POOLER_URL is not set: run the tests with `make test`, which starts PgBouncer")
            }
            configuration.databaseURL = pooler
            configuration.transactionPooler = true
        }
        configuration.server.port = 0
        configuration.server.accessLog = false
        configuration.publicDirectory = TestPaths.repository + "/Public"
        configuration.templatesDirectory = TestPaths.repository + "/Templates"
        // A missing variable fails the page, and so the test (unless a test asks for production).
        configuration.development = environment["PORTAL_MODE"] != "production"
        // Templates are read once: a test's pages are not edited while it runs.
        configuration.rereadsTemplates = false
        configuration.servedOverHTTPS = https
        let clock = self.clock
        self.configuration = configuration
        application = try PortalApplication(configuration: configuration, databaseOverrides: ["dbname": database.name], clock: { clock.read() })
        server = try application.makeServer()
        try server.start()
        if live || listening { application.startBackgroundJobs() }
        pool = database.appPool(maxConnections: 1)
        if agent || agentRunning {
            // With SMTP_URL in `environment`, the agent sends mail too, its links to this server.
            let origin = "http://127.0.0.1:\(server.port)"
            let mail = configuration.mail.map { (server: $0, linkOrigin: origin) }
            let made = AuthAgent(
                databaseURL: database.agentURL, overrides: ["dbname": database.name], outbound: configuration.outbound, mail: mail,
                templatesDirectory: configuration.templatesDirectory, clock: { clock.read() })
            if agentRunning { made.start() }
            self.agent = made
        } else {
            self.agent = nil
        }
    }

    public func browser() -> Browser { Browser(port: server.port) }

    /// A second instance of the portal on the same database (as behind a load balancer); the
    /// caller shuts it down.
    public func anotherInstance() throws -> HTTPServer {
        let clock = self.clock
        let server = try PortalApplication(configuration: configuration, databaseOverrides: ["dbname": database.name], clock: { clock.read() }).makeServer()
        try server.start()
        return server
    }

    /// A second instance that listens to the database's notices too; the caller stops both.
    public func anotherListeningInstance() throws -> (PortalApplication, HTTPServer) {
        let clock = self.clock
        let other = try PortalApplication(configuration: configuration, databaseOverrides: ["dbname": database.name], clock: { clock.read() })
        let server = try other.makeServer()
        try server.start()
        other.startBackgroundJobs()
        return (other, server)
    }

    /// Reads everything (the study tables force row-level security even on their owner): as
    /// the cluster's superuser, to count what was stored.
    @discardableResult
    public func admin<Value>(_ body: (PostgresConnection) throws -> Value) throws -> Value {
        try body(try database.superuserConnection())
    }

    public func count(_ sql: SQL) throws -> Int { try admin { try $0.query(sql).single().decode("n", as: Int.self) } }

    deinit {
        agent?.stop()
        application.stopBackgroundJobs()
        pool.shutdown()
        server.shutdown()
        server.waitUntilStopped()
        // Whatever still holds the application (a worker thread winding down) holds the
        // database through the clock: dropped here, not when the last of them lets go.
        database.drop()
    }
}

