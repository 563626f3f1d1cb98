import Foundation
import PostgresClient

/// A fresh database for one test, created on the test cluster and dropped afterwards.
///
/// `make test` starts the cluster and sets `PORTAL_TEST_ADMIN_URL` (the owner role) and
/// `PORTAL_TEST_APP_URL` (the `portal_app` role).
public final class TestDatabase: @unchecked Sendable {
    public let name: String
    public let adminURL: String
    public let appURL: String
    private let identifier: PostgresIdentifier

    /// Creates an empty database; `migrated` applies the repository's migrations to it.
    public convenience init(migrated: Bool = false, migrationsDirectory: String? = nil) throws {
        try self.init(migrated: migrated, migrationsDirectory: migrationsDirectory, seeded: nil)
    }

    /// A migrated database holding what `prepare` puts in a fresh one (the demo catalogue, say):
    /// a copy of a template this test run prepares once under `name` and then copies for each
    /// test, as seeding takes seconds and a copy a tenth of one.
    public convenience init(seeded name: String, _ prepare: @escaping (PostgresConnection) throws -> Void) throws {
        try self.init(migrated: true, migrationsDirectory: nil, seeded: (name, prepare))
    }

    private init(migrated: Bool, migrationsDirectory: String?, seeded: (name: String, prepare: (PostgresConnection) throws -> Void)?) throws {
        guard let adminURL = ProcessInfo.processInfo.environment["PORTAL_TEST_ADMIN_URL"],
              let appURL = ProcessInfo.processInfo.environment["PORTAL_TEST_APP_URL"]
        else { throw TestEnvironmentError("PORTAL_TEST_ADMIN_URL and PORTAL_TEST_APP_URL are not set: run the tests with `make test`") }
        self.adminURL = adminURL
        self.appURL = appURL
        name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        identifier = PostgresIdentifier(name)!
        let maintenance = try PostgresConnection(url: adminURL)
        if migrated, migrationsDirectory == nil {
            // The repository's schema: a copy of one database migrated once per run (and per
            // change of migrations/ or db/), which takes a tenth of the time of migrating.
            let template = try seeded.map { try MigratedTemplate.seeded($0.name, adminURL: adminURL, $0.prepare) }
                ?? MigratedTemplate.name(adminURL: adminURL)
            try maintenance.execute("CREATE DATABASE \(identifier: identifier) TEMPLATE \(identifier: template)")
            try MigratedTemplate.copyDatabaseSettings(from: template, to: identifier, maintenance)
        } else {
            try maintenance.execute("CREATE DATABASE \(identifier: identifier)")
            if migrated, let migrationsDirectory {
                _ = try Migrator(directory: migrationsDirectory).migrate(try adminConnection())
            }
        }
    }

    deinit { drop() }

    /// `DATABASE_ADMIN_URL` pointing at this database (the test cluster's URLs end in `/portal`).
    public var adminDatabaseURL: String { Self.replacingDatabase(in: adminURL, with: name) }

    /// `DATABASE_URL` pointing at this database.
    public var appDatabaseURL: String { Self.replacingDatabase(in: appURL, with: name) }

    private static func replacingDatabase(in url: String, with database: String) -> String {
        let withoutQuery = url.split(separator: "?", maxSplits: 1)
        let base = withoutQuery[0]
        let prefix = base[..<(base.lastIndex(of: "/") ?? base.endIndex)]
        return prefix + "/" + database + (withoutQuery.count > 1 ? "?" + withoutQuery[1] : "")
    }

    /// A connection as the owner role.
    public func adminConnection() throws -> PostgresConnection {
        try PostgresConnection(url: adminURL, overrides: ["dbname": name])
    }

    /// A connection as the app role (`portal_app`), which row-level security applies to.
    public func appConnection() throws -> PostgresConnection {
        try PostgresConnection(url: appURL, overrides: ["dbname": name])
    }

    /// `AUTH_AGENT_DATABASE_URL` for this cluster: the app's URL as the portal_agent role (the
    /// role `portal auth-agent` connects as; the database is chosen by an override).
    public var agentURL: String { appURL.replacingOccurrences(of: "portal_app@", with: "portal_agent@") }

    /// A connection as the agent role (`portal_agent`).
    public func agentConnection() throws -> PostgresConnection {
        try PostgresConnection(url: agentURL, overrides: ["dbname": name])
    }

    /// A pool of app-role connections.
    public func appPool(maxConnections: Int = 4, checkoutTimeout: Duration = .seconds(5)) -> ConnectionPool {
        ConnectionPool(.init(url: appURL, overrides: ["dbname": name], maxConnections: maxConnections, checkoutTimeout: checkoutTimeout))
    }

    /// Drops the database, ending any connection still open on it: as the test cluster's
    /// superuser, since only it may end the app role's connections (a server's pool a test left
    /// open would otherwise keep the database, and a run would leave hundreds behind), else as
    /// the owner.
    public func drop() {
        for overrides in [["user": "postgres"], [:]] {
            guard let maintenance = try? PostgresConnection(url: adminURL, overrides: overrides) else { continue }
            if (try? maintenance.execute("DROP DATABASE IF EXISTS \(identifier: identifier) WITH (FORCE)")) != nil { return }
        }
    }
}

/// The test run was started without what it needs; the message says how to start it.
public struct TestEnvironmentError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Paths inside the repository, wherever the tests run from.
public enum TestPaths {
    /// The repository's root folder.
    public static var repository: String {
        if let root = ProcessInfo.processInfo.environment["PORTAL_TEST_ROOT"] { return root }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
