import Foundation

/// Applies `NNNN_name.sql` files in order, each in its own transaction, and records them in
/// `schema_migrations(version, name, checksum, applied_at)`; then the repeatable scripts
/// (`RepeatableScripts`: functions, views and policies, one file each) whose text changed.
///
/// A session-level advisory lock serializes migrators, so instances that start together apply
/// each file exactly once. A file that changed after it was applied is refused by name: the
/// database no longer matches the history the code expects.
public struct Migrator: Sendable {
    /// One migration file.
    public struct Migration: Sendable, Equatable {
        public var version: Int
        public var name: String
        public var fileName: String
        public var script: String
    }

    /// What is wrong with the migrations or the database's record of them.
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case badFileName(String)
        case duplicateVersion(Int, String, String)
        case changedAfterApply(fileName: String)
        case unknownInDatabase(version: Int, name: String)
        case pending([String])
        case stale([String])

        public var description: String {
            switch self {
            case .badFileName(let name):
                "migration file \(name) is not named NNNN_name.sql"
            case .duplicateVersion(let version, let first, let second):
                "migrations \(first) and \(second) share version \(version)"
            case .changedAfterApply(let fileName):
                "migration \(fileName) was changed after it was applied; restore it and add a new migration instead"
            case .unknownInDatabase(let version, let name):
                "the database has migration \(version) (\(name)) that this build does not know; run a newer build"
            case .pending(let names):
                "the database lacks migrations \(names.joined(separator: ", ")); run `portal migrate`"
            case .stale(let paths):
                "the database's \(paths.prefix(5).joined(separator: ", "))\(paths.count > 5 ? " and \(paths.count - 5) more" : "") differ from this build's; run `portal migrate`"
            }
        }
    }

    /// Arbitrary but fixed key for `pg_advisory_lock`, shared by every instance.
    static let lockKey: Int64 = 0x5354_5544_594D_4947  // "STUDYMIG"

    public let migrations: [Migration]
    /// The definitions re-applied when they change, if a folder of them was given.
    public let repeatables: RepeatableScripts?

    /// Reads every `*.sql` file of `directory`, and the repeatable scripts of `repeatables`
    /// (a `db/` folder) when given.
    public init(directory: String, repeatables: String? = nil) throws {
        self.repeatables = try repeatables.map(RepeatableScripts.init(directory:))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sql") }.sorted()
        var migrations: [Migration] = []
        for fileName in names {
            let stem = fileName.dropLast(4)
            let parts = stem.split(separator: "_", maxSplits: 1)
            guard parts.count == 2, parts[0].count == 4, let version = Int(parts[0]), !parts[1].isEmpty else {
                throw Failure.badFileName(fileName)
            }
            if let previous = migrations.last, previous.version == version {
                throw Failure.duplicateVersion(version, previous.fileName, fileName)
            }
            let script = try String(contentsOfFile: directory + "/" + fileName, encoding: .utf8)
            migrations.append(Migration(version: version, name: String(parts[1]), fileName: fileName, script: script))
        }
        self.migrations = migrations
    }

    /// Applies every migration not yet applied; returns the file names it applied.
    @discardableResult
    public func migrate(_ connection: PostgresConnection) throws -> [String] {
        try connection.execute("SELECT pg_advisory_lock(\(Self.lockKey))")
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock(\(Self.lockKey))") }
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let pending = try check(connection)
        var applied: [String] = []
        for migration in pending {
            try connection.withTransaction { connection in
                try connection.runScript(migration.script)
                try connection.execute("""
                    INSERT INTO schema_migrations (version, name, checksum)
                    VALUES (\(migration.version), \(migration.name), encode(sha256(convert_to(\(migration.script), 'UTF8')), 'hex'))
                    """)
            }
            applied.append(migration.fileName)
        }
        if let repeatables { applied += try repeatables.apply(connection).map { "db/" + $0 } }
        return applied
    }

    /// Verifies that the database's history matches these files and that none is pending.
    public func verify(_ connection: PostgresConnection) throws {
        let exists = try connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present").first?
            .decode("present", as: Bool.self) ?? false
        guard exists else { throw Failure.pending(migrations.map(\.fileName)) }
        let pending = try check(connection)
        if !pending.isEmpty { throw Failure.pending(pending.map(\.fileName)) }
        if let stale = try repeatables?.stale(connection), !stale.isEmpty { throw Failure.stale(stale.map { "db/" + $0.path }) }
    }

    /// Compares recorded checksums with the files; returns the migrations not yet applied.
    private func check(_ connection: PostgresConnection) throws -> [Migration] {
        var recorded: [Int: (name: String, checksum: String)] = [:]
        for row in try connection.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version").rows {
            recorded[try row.decode("version", as: Int.self)] = (try row.decode("name", as: String.self), try row.decode("checksum", as: String.self))
        }
        let known = Set(migrations.map(\.version))
        if let unknown = recorded.keys.sorted().first(where: { !known.contains($0) }) {
            throw Failure.unknownInDatabase(version: unknown, name: recorded[unknown]!.name)
        }
        var pending: [Migration] = []
        for migration in migrations {
            guard let entry = recorded[migration.version] else {
                pending.append(migration)
                continue
            }
            let checksum = try connection.query("SELECT encode(sha256(convert_to(\(migration.script), 'UTF8')), 'hex') AS sum")
                .single().decode("sum", as: String.self)
            if checksum != entry.checksum { throw Failure.changedAfterApply(fileName: migration.fileName) }
        }
        return pending
    }
}
