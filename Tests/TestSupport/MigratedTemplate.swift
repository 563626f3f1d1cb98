import Foundation
import PostgresClient

/// The test cluster's copy of the repository's schema: one database migrated from `migrations/`
/// and `db/`, named by a digest of those files, which `TestDatabase(migrated: true)` clones
/// (`CREATE DATABASE … TEMPLATE`) instead of migrating each test's database anew.
enum MigratedTemplate {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: String?

    /// The template's name, migrating it first when this run is the first to need it. Other
    /// processes wait on an advisory lock, so two test runs never build one twice; templates of
    /// older files are dropped when a new one is made.
    static func name(adminURL: String) throws -> PostgresIdentifier {
        lock.lock()
        defer { lock.unlock() }
        if let made { return PostgresIdentifier(made)! }
        let repository = TestPaths.repository
        let migrator = try Migrator(directory: repository + "/migrations", repeatables: repository + "/db")
        let maintenance = try PostgresConnection(url: adminURL)
        defer { maintenance.close() }
        let digest = try maintenance.query("SELECT left(md5(\(try sourceText(repository))), 16) AS digest").single().decode("digest", as: String.self)
        let name = "portal_template_" + digest
        let identifier = PostgresIdentifier(name)!
        try maintenance.execute("SELECT pg_advisory_lock(hashtext('portal_template'))")
        defer { _ = try? maintenance.execute("SELECT pg_advisory_unlock(hashtext('portal_template'))") }
        let exists = try maintenance.query("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = \(name)) AS present")
            .single().decode("present", as: Bool.self)
        if !exists {
            try dropDatabases(named: "portal_template_", maintenance) { _ in true }
            // Built under another name and renamed when whole: a run stopped halfway leaves
            // nothing that looks finished.
            let building = PostgresIdentifier("portal_building_" + digest)!
            try maintenance.execute("DROP DATABASE IF EXISTS \(identifier: building) WITH (FORCE)")
            try maintenance.execute("CREATE DATABASE \(identifier: building)")
            let connection = try PostgresConnection(url: adminURL, overrides: ["dbname": building.name])
            _ = try migrator.migrate(connection)
            connection.close()
            try maintenance.execute("ALTER DATABASE \(identifier: building) RENAME TO \(identifier: identifier)")
        }
        made = name
        return identifier
    }

    nonisolated(unsafe) private static var seededMade: [String: String] = [:]

    /// A template of this test run's own (named by its process id: what it holds comes from
    /// this build, which no digest of files names), made from the migrated one by `prepare`.
    /// Those of runs no longer running are dropped when one is made.
    static func seeded(_ name: String, adminURL: String, _ prepare: (PostgresConnection) throws -> Void) throws -> PostgresIdentifier {
        let migrated = try self.name(adminURL: adminURL)
        lock.lock()
        defer { lock.unlock() }
        if let made = seededMade[name] { return PostgresIdentifier(made)! }
        let pid = ProcessInfo.processInfo.processIdentifier
        let maintenance = try PostgresConnection(url: adminURL)
        defer { maintenance.close() }
        try dropDatabases(named: "portal_seeded_", maintenance) { datname in
            guard let other = Int32(datname.split(separator: "_").last ?? "") else { return false }
            return other != pid && kill(other, 0) != 0
        }
        guard let identifier = PostgresIdentifier("portal_seeded_\(name)_\(pid)") else { throw TestEnvironmentError("a template name must be lower-case letters: \(name)") }
        try maintenance.execute("DROP DATABASE IF EXISTS \(identifier: identifier) WITH (FORCE)")
        try maintenance.execute("CREATE DATABASE \(identifier: identifier) TEMPLATE \(identifier: migrated)")
        try copyDatabaseSettings(from: migrated, to: identifier, maintenance)
        let connection = try PostgresConnection(url: adminURL, overrides: ["dbname": identifier.name])
        try prepare(connection)
        connection.close()
        seededMade[name] = identifier.name
        return identifier
    }

    /// Drops the databases whose names start with `prefix` (`_` taken literally) and that
    /// `stale` says are no longer wanted; one in use stays.
    private static func dropDatabases(named prefix: String, _ maintenance: PostgresConnection, stale: (String) -> Bool) throws {
        let pattern = prefix.replacingOccurrences(of: "_", with: "\\_") + "%"
        for row in try maintenance.query("SELECT datname FROM pg_database WHERE datname LIKE \(pattern)").rows {
            let datname = try row.decode("datname", as: String.self)
            if stale(datname), let old = PostgresIdentifier(datname) {
                _ = try? maintenance.execute("DROP DATABASE IF EXISTS \(identifier: old)")
            }
        }
    }

    /// What a clone does not inherit from its template, copied: the roles' settings in the
    /// database (time zone, timeouts) and its grants (no temporary tables for the app role).
    static func copyDatabaseSettings(from template: PostgresIdentifier, to clone: PostgresIdentifier, _ connection: PostgresConnection) throws {
        let text = try String(contentsOfFile: TestPaths.repository + "/Tests/Fixtures/database-settings-to-copy.sql", encoding: .utf8)
        let query = SQL(stringLiteral: text).withBindings(of: "\(template.name) \(clone.name)")
        let statements = try connection.query(query).rows.map { try $0.decode("statement", as: String.self) }
        // Role settings first, then the revocation, then the grants (UNION ALL keeps that order).
        for statement in statements {
            try connection.execute(SQL(stringLiteral: statement))
        }
    }

    /// Every file the schema is made from, names and contents, in a stable order.
    private static func sourceText(_ repository: String) throws -> String {
        var text = ""
        for folder in ["migrations", "db"] {
            let root = URL(fileURLWithPath: repository + "/" + folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            let files = walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "sql" }.map(\.path).sorted()
            for file in files {
                text += file.dropFirst(repository.count) + "\n" + (try String(contentsOfFile: file, encoding: .utf8)) + "\n"
            }
        }
        return text
    }
}
