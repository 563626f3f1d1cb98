import Foundation

/// SQL files that state the current definition of something — a function, a view, a table's
/// policies or its triggers — re-applied by the migrator whenever their text changes (the repeatable-migration
/// pattern), so changing a function is a diff of that function, never a copy of it in a new
/// numbered migration. Tables stay in numbered migrations; these run after them.
///
/// The folder's subfolders are applied in a fixed order (`functions`, `views`, `policies`,
/// `triggers`, then any other, alphabetically; files alphabetically within each), each file once per change, all
/// that changed in one transaction. `_before.sql` and `_after.sql` at the top, when present, wrap
/// that transaction (for grants the definitions need while they are applied). Each file must be
/// idempotent: `CREATE OR REPLACE`, or drop what it then creates.
public struct RepeatableScripts: Sendable {
    public struct Script: Sendable, Equatable {
        /// The path inside the folder: `functions/app_now.sql`.
        public var path: String
        public var script: String
    }

    /// In the order they are applied.
    public let scripts: [Script]
    public let before: String?
    public let after: String?

    /// Subfolders applied first, in this order.
    static let order = ["functions", "views", "policies", "triggers"]

    public init(directory: String) throws {
        let manager = FileManager.default
        let folders = try manager.contentsOfDirectory(atPath: directory).filter { name in
            var isFolder: ObjCBool = false
            return manager.fileExists(atPath: directory + "/" + name, isDirectory: &isFolder) && isFolder.boolValue
        }
        let ordered = Self.order.filter(folders.contains) + folders.filter { !Self.order.contains($0) }.sorted()
        var scripts: [Script] = []
        for folder in ordered {
            for name in try manager.contentsOfDirectory(atPath: directory + "/" + folder).filter({ $0.hasSuffix(".sql") }).sorted() {
                scripts.append(Script(path: folder + "/" + name, script: try String(contentsOfFile: directory + "/" + folder + "/" + name, encoding: .utf8)))
            }
        }
        self.scripts = scripts
        func optional(_ name: String) -> String? { try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) }
        before = optional("_before.sql")
        after = optional("_after.sql")
    }

    /// Applies the scripts whose text differs from what `schema_repeatables` records (all of
    /// them the first time) in one transaction; returns their paths.
    @discardableResult
    func apply(_ connection: PostgresConnection) throws -> [String] {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_repeatables (
                path text PRIMARY KEY,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let changed = try stale(connection)
        guard !changed.isEmpty else { return [] }
        try connection.withTransaction { connection in
            if let before { try connection.runScript(before) }
            for script in changed {
                do {
                    try connection.runScript(script.script)
                } catch let error as PostgresError {
                    throw RepeatableFailure(path: script.path, message: error.message)
                }
                try connection.execute("""
                    INSERT INTO schema_repeatables (path, checksum) VALUES (\(script.path), encode(sha256(convert_to(\(script.script), 'UTF8')), 'hex'))
                    ON CONFLICT (path) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()
                    """)
            }
            if let after { try connection.runScript(after) }
        }
        return changed.map(\.path)
    }

    /// The scripts not applied in their present text.
    func stale(_ connection: PostgresConnection) throws -> [Script] {
        let exists = try connection.query("SELECT to_regclass('schema_repeatables') IS NOT NULL AS present").first?.decode("present", as: Bool.self) ?? false
        var recorded: [String: String] = [:]
        if exists {
            for row in try connection.query("SELECT path, checksum FROM schema_repeatables").rows {
                recorded[try row.decode("path", as: String.self)] = try row.decode("checksum", as: String.self)
            }
        }
        // Checksums as the numbered migrations' are made: SHA-256 of the text, by the database.
        let sums = try connection.query("""
            SELECT s.ordinality::int AS position, encode(sha256(convert_to(s.script, 'UTF8')), 'hex') AS sum
            FROM unnest(\(scripts.map(\.script))::text[]) WITH ORDINALITY AS s(script, ordinality)
            """).rows
        var stale: [Script] = []
        for row in sums {
            let script = scripts[try row.decode("position", as: Int.self) - 1]
            if recorded[script.path] != (try row.decode("sum", as: String.self)) { stale.append(script) }
        }
        return stale.sorted { scripts.firstIndex(of: $0)! < scripts.firstIndex(of: $1)! }
    }
}

/// A repeatable script the database refused: nothing of the changed scripts was applied.
public struct RepeatableFailure: Error, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { "db/\(path): \(message)" }
}
