import Foundation
import HTTPClient
import HTTPServer
import MailClient
import RedisClient

/// The portal's settings, read from the environment with defaults that work on a fresh checkout.
public struct PortalConfiguration: Sendable {
    /// The app role's connection (`portal_app`): what the server uses.
    public var databaseURL: String?
    /// The owner's connection: what migrations use (always direct, never through a pooler).
    public var databaseAdminURL: String?
    /// Read replicas (`DATABASE_REPLICA_URL`, libpq's multi-host URL with
    /// `target_session_attrs` as it likes): catalogue pages for visitors, bundles, change feeds.
    public var databaseReplicaURL: String?
    /// `DATABASE_POOLER=transaction`: `DATABASE_URL` goes through a pooler in transaction mode,
    /// so statements are never prepared by name.
    public var transactionPooler = false
    /// A direct connection for listening to the database's notices (`DATABASE_LISTEN_URL`):
    /// needed when `DATABASE_URL` goes through a transaction pooler, which cannot keep a
    /// `LISTEN`. Without any, nothing is kept in memory that the notices would invalidate.
    public var databaseListenURL: String?

    /// Where notices are listened for: the listen URL, or `DATABASE_URL` when it is direct.
    public var eventsURL: String? { databaseListenURL ?? (transactionPooler ? nil : databaseURL) }
    /// Seconds `/readyz` answers 503 after SIGTERM before the listener closes
    /// (`SHUTDOWN_DRAIN_SECONDS`), so a load balancer stops sending first.
    public var shutdownDrain: TimeInterval = 5
    public var migrationsDirectory = "migrations"
    /// Functions, views and policies, one file each, re-applied when they change (`DB_DIR`).
    public var repeatablesDirectory = "db"
    public var publicDirectory = "Public"
    public var templatesDirectory = "Templates"
    /// Development: templates re-read when changed, a missing variable is an error.
    public var development = false
    /// In development, whether a template's change is looked for at every page (each render
    /// lists the folder). Tests, whose templates do not change while they run, turn it off.
    public var rereadsTemplates = true
    /// Served over HTTPS (`PUBLIC_URL=https://…`): session cookies become `Secure` and `__Host-`.
    public var servedOverHTTPS = false
    /// The site's origin (`PUBLIC_URL`, e.g. `https://portal.example`): the Origin check accepts
    /// it whatever `Host` a proxy passes, and absolute links are built from it.
    public var publicOrigin: String?
    /// Peers whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed (`TRUSTED_PROXIES`,
    /// addresses or CIDRs separated by commas; none by default).
    var trustedProxies: [AddressRange] = []
    /// `METRICS_TOKEN`: a bearer token that opens `/metrics` from anywhere.
    public var metricsToken: String?
    /// `METRICS_ALLOW`: client addresses that may read `/metrics` without the token (loopback).
    var metricsAllowed: [AddressRange] = [AddressRange("127.0.0.0/8"), AddressRange("::1")].compactMap { $0 }
    /// A session unused this long ends (`SESSION_IDLE_SECONDS`, default a week).
    public var sessionIdleTimeout: TimeInterval = 7 * 24 * 3600
    /// A session ends this long after sign-in however active (`SESSION_LIFETIME_SECONDS`, default 30 days).
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    public var databaseConnections = 2 * System.coreCount + 4
    /// How often the leaderboard is refreshed (`LEADERBOARD_REFRESH_SECONDS`, default 3 minutes;
    /// 0 turns the background job off, leaving `portal refresh-leaderboard`).
    public var leaderboardRefresh: TimeInterval = 180
    /// Accounts one client address may create per hour (`REGISTRATIONS_PER_HOUR`, default 10;
    /// a school whose pupils all register from behind one address raises it for the day).
    public var registrationsPerHour = 10
    /// Redis for live events (`REDIS_URL`: `redis://host:port` or `unix:///path`); without it,
    /// live events say they are unavailable and everything else works.
    public var redisURL: String?
    public var server = ServerConfiguration()
    /// Outbound requests (platforms' key sets, tokens and scores; identity providers):
    /// The portal's own requests reach the public internet only: `OUTBOUND_ALLOW_LOOPBACK_HTTP=1`
    /// lets them reach this machine, by plain HTTP too (tests, rehearsals), `OUTBOUND_ALLOW`
    /// opens CIDR ranges of internal addresses, `OUTBOUND_CA_FILE` trusts another authority's
    /// certificates.
    public var outbound = HTTPClient.Configuration()
    /// Where mail is submitted and as whom (`SMTP_URL`, `MAIL_FROM`): without it nothing tries
    /// to send and no page offers what needs e-mail. `portal auth-agent` sends; `PUBLIC_URL`
    /// gives the links in messages their origin.
    public var mail: MailServer?
    /// How long a guest's sessions and live-event entries, and accounts never used, are kept
    /// (`GUEST_RETENTION_DAYS`, 30 to 3650; 30 by default, which the database never goes below).
    public var guestRetentionDays = 30
    /// "Download my data" is made at once for up to this many answers, in the background beyond
    /// (`DATA_EXPORT_INLINE_ANSWERS`, default 20,000).
    public var dataExportInlineAnswers = 20_000

    public init() {}

    /// Reads `DATABASE_URL`, `DATABASE_ADMIN_URL`, `HOST`, `PORT`, `WORKERS`, `EVENT_LOOPS`,
    /// `MAX_CONNECTIONS`, `ACCESS_LOG` (on/off), `PUBLIC_DIR`, `MIGRATIONS_DIR`, `DB_POOL_SIZE`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PortalConfiguration {
        var configuration = PortalConfiguration()
        let reader = EnvironmentReader(values: environment)
        try configuration.readDatabaseAndServer(reader)
        try configuration.readAddresses(reader)
        try configuration.readServices(reader)
        return configuration
    }

    /// The environment's settings as text, and as whole numbers within their ranges.
    private struct EnvironmentReader {
        let values: [String: String]

        subscript(_ name: String) -> String? { values[name] }

        func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let text = values[name], !text.isEmpty else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw ConfigurationError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(text)")
            }
            return value
        }
    }

    /// The database's addresses and pooler, the server's address, workers, limits and log.
    private mutating func readDatabaseAndServer(_ environment: EnvironmentReader) throws {
        databaseURL = environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        databaseAdminURL = environment["DATABASE_ADMIN_URL"].flatMap { $0.isEmpty ? nil : $0 }
        databaseReplicaURL = environment["DATABASE_REPLICA_URL"].flatMap { $0.isEmpty ? nil : $0 }
        databaseListenURL = environment["DATABASE_LISTEN_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if let pooler = environment["DATABASE_POOLER"], !pooler.isEmpty {
            guard pooler == "transaction" || pooler == "session" || pooler == "none" else {
                throw ConfigurationError("DATABASE_POOLER must be transaction, session or none, not \(pooler)")
            }
            transactionPooler = pooler == "transaction"
        }
        if let drain = try environment.integer("SHUTDOWN_DRAIN_SECONDS", in: 0...600) { shutdownDrain = TimeInterval(drain) }
        if let cap = try environment.integer("MAX_CONNECTIONS_PER_ADDRESS", in: 1...1_000_000) { server.maxConnectionsPerAddress = cap }
        if let host = environment["HOST"], !host.isEmpty { server.host = host }
        if let port = try environment.integer("PORT", in: 0...65535) { server.port = port }
        if let workers = try environment.integer("WORKERS", in: 1...1024) {
            server.workers = workers
            databaseConnections = workers
        }
        if let loops = try environment.integer("EVENT_LOOPS", in: 1...256) { server.eventLoops = loops }
        if let cap = try environment.integer("MAX_CONNECTIONS", in: 1...1_000_000) { server.maxConnections = cap }
        if let pool = try environment.integer("DB_POOL_SIZE", in: 1...1000) { databaseConnections = pool }
        if let log = environment["ACCESS_LOG"] {
            switch log.lowercased() {
            case "on", "1", "true", "": server.accessLog = true
            case "off", "0", "false": server.accessLog = false
            default: throw ConfigurationError("ACCESS_LOG must be on or off, not \(log)")
            }
        }
    }

    /// The folders, the public address, the proxies trusted, monitoring, sessions' lifetimes.
    private mutating func readAddresses(_ environment: EnvironmentReader) throws {
        if let directory = environment["PUBLIC_DIR"], !directory.isEmpty { publicDirectory = directory }
        if let directory = environment["MIGRATIONS_DIR"], !directory.isEmpty { migrationsDirectory = directory }
        if let directory = environment["DB_DIR"], !directory.isEmpty { repeatablesDirectory = directory }
        if let url = environment["PUBLIC_URL"], !url.isEmpty {
            publicOrigin = try origin(url)
            servedOverHTTPS = url.hasPrefix("https://")
        }
        if let list = environment["TRUSTED_PROXIES"], !list.isEmpty {
            trustedProxies = try ranges(list, name: "TRUSTED_PROXIES")
        }
        if let token = environment["METRICS_TOKEN"], !token.isEmpty {
            guard token.utf8.count >= 16 else { throw ConfigurationError("METRICS_TOKEN must be at least 16 characters") }
            metricsToken = token
        }
        if let list = environment["METRICS_ALLOW"] {
            metricsAllowed = list.isEmpty ? [] : try ranges(list, name: "METRICS_ALLOW")
        }
        if let idle = try environment.integer("SESSION_IDLE_SECONDS", in: 60...31_536_000) { sessionIdleTimeout = TimeInterval(idle) }
        if let lifetime = try environment.integer("SESSION_LIFETIME_SECONDS", in: 60...31_536_000) { sessionLifetime = TimeInterval(lifetime) }
    }

    /// Redis, limits, outbound requests, retention, mail and the mode.
    private mutating func readServices(_ environment: EnvironmentReader) throws {
        if let url = environment["REDIS_URL"], !url.isEmpty {
            guard RedisEndpoint(url: url) != nil else {
                throw ConfigurationError("REDIS_URL must be redis://host:port or unix:///path/to/redis.sock, not \(url)")
            }
            redisURL = url
        }
        if let count = try environment.integer("REGISTRATIONS_PER_HOUR", in: 1...100_000) { registrationsPerHour = count }
        if let seconds = try environment.integer("LEADERBOARD_REFRESH_SECONDS", in: 0...86_400) { leaderboardRefresh = TimeInterval(seconds) }
        if let directory = environment["TEMPLATES_DIR"], !directory.isEmpty { templatesDirectory = directory }
        outbound = HTTPClient.Configuration.fromEnvironment(environment.values)
        // A range that does not parse is an error, not a range quietly left closed.
        outbound.allowedRanges = try ranges(environment["OUTBOUND_ALLOW"] ?? "", name: "OUTBOUND_ALLOW")
        if let days = try environment.integer("GUEST_RETENTION_DAYS", in: 30...3650) { guestRetentionDays = days }
        if let answers = try environment.integer("DATA_EXPORT_INLINE_ANSWERS", in: 0...10_000_000) { dataExportInlineAnswers = answers }
        if let url = environment["SMTP_URL"], !url.isEmpty {
            guard let from = environment["MAIL_FROM"], !from.isEmpty else {
                throw ConfigurationError("SMTP_URL needs MAIL_FROM: the address messages come from, e.g. Study Portal <portal@school.example>")
            }
            do {
                mail = try MailServer(url: url, from: from)
            } catch {
                throw ConfigurationError(error.description)
            }
        }
        if let mode = environment["PORTAL_MODE"], !mode.isEmpty {
            guard mode == "development" || mode == "production" else {
                throw ConfigurationError("PORTAL_MODE must be development or production, not \(mode)")
            }
            development = mode == "development"
        }
    }
}

/// `https://host[:port]` without a path: the origin browsers send in `Origin`.
func origin(_ url: String) throws -> String {
    let trimmed = url.hasSuffix("/") ? String(url.dropLast()) : url
    guard let parts = URLComponents(string: trimmed), let scheme = parts.scheme, scheme == "https" || scheme == "http",
          let host = parts.host, !host.isEmpty, parts.path.isEmpty, parts.query == nil, parts.user == nil else {
        throw ConfigurationError("PUBLIC_URL must be an origin such as https://portal.example (no path), not \(url)")
    }
    return trimmed.lowercased()
}

/// Addresses and CIDR ranges separated by commas.
func ranges(_ list: String, name: String) throws -> [AddressRange] {
    try list.split(separator: ",").map { item in
        guard let range = AddressRange(String(item)) else {
            throw ConfigurationError("\(name) holds \(item.trimmingCharacters(in: .whitespaces)), which is not an address or CIDR range")
        }
        return range
    }
}

/// A setting that cannot be used; the message says which and why.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
