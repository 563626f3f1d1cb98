import Foundation
import PostgresClient
import TestSupport
import Testing

@Suite("Migrations", .onTestThreads)
struct MigratorTests {
    /// A folder of migration files for one test.
    private func folder(_ files: [String: String]) throws -> String {
        let path = NSTemporaryDirectory() + "migrations-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, script) in files { try script.write(toFile: path + "/" + name, atomically: true, encoding: .utf8) }
        return path
    }

    @Test("the repository's migrations and db/ definitions apply to an empty database, then there is nothing to do")
    func repositoryMigrationsApply() throws {
        let database = try TestDatabase()
        let migrator = try Migrator(directory: TestPaths.repository + "/migrations", repeatables: TestPaths.repository + "/db")
        let applied = try migrator.migrate(try database.adminConnection())
        #expect(applied == migrator.migrations.map(\.fileName) + (migrator.repeatables?.scripts.map { "db/" + $0.path } ?? []))
        #expect(applied.contains("db/functions/lti_sign_in.sql") && applied.contains("db/policies/answers.sql"))
        #expect(try migrator.migrate(try database.adminConnection()).isEmpty)
        try migrator.verify(try database.appConnection())
    }

    @Test("a definition in db/ is re-applied when its text changes, and only then; a server's check asks for a migrate meanwhile; a failing one leaves every definition as it was")
    func repeatableDefinitions() throws {
        let migrations = try folder(["0001_table.sql": "CREATE TABLE notes (id int, body text);"])
        let db = NSTemporaryDirectory() + "db-" + UUID().uuidString
        for folder in ["functions", "policies"] { try FileManager.default.createDirectory(atPath: db + "/" + folder, withIntermediateDirectories: true) }
        func write(_ path: String, _ text: String) throws { try text.write(toFile: db + "/" + path, atomically: true, encoding: .utf8) }
        try write("functions/greeting.sql", "CREATE OR REPLACE FUNCTION greeting() RETURNS text LANGUAGE sql AS $$ SELECT 'hello' $$;")
        try write("functions/other.sql", "CREATE OR REPLACE FUNCTION other() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;")
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        #expect(try Migrator(directory: migrations, repeatables: db).migrate(connection) == ["0001_table.sql", "db/functions/greeting.sql", "db/functions/other.sql"])
        try write("functions/greeting.sql", "CREATE OR REPLACE FUNCTION greeting() RETURNS text LANGUAGE sql AS $$ SELECT 'hello again' $$;")
        #expect(throws: Migrator.Failure.stale(["db/functions/greeting.sql"])) { try Migrator(directory: migrations, repeatables: db).verify(connection) }
        #expect(try Migrator(directory: migrations, repeatables: db).migrate(connection) == ["db/functions/greeting.sql"])
        #expect(try connection.query("SELECT greeting() AS g").single().decode("g", as: String.self) == "hello again")
        // A definition the database refuses: named, and neither it nor the others of its run change.
        try write("functions/greeting.sql", "CREATE OR REPLACE FUNCTION greeting() RETURNS text LANGUAGE sql AS $$ SELECT 'third' $$;")
        try write("functions/other.sql", "CREATE OR REPLACE FUNCTION other() RETURNS int LANGUAGE sql AS $$ SELECT no_such_column FROM notes $$;")
        let failure = #expect(throws: RepeatableFailure.self) { try Migrator(directory: migrations, repeatables: db).migrate(connection) }
        #expect(failure?.path == "functions/other.sql")
        #expect(try connection.query("SELECT greeting() AS g").single().decode("g", as: String.self) == "hello again")
    }

    @Test("an edited migration is refused with its name in the message")
    func editedMigrationIsRefused() throws {
        let path = try folder([
            "0001_first.sql": "CREATE TABLE first (id int);",
            "0002_second.sql": "CREATE TABLE second (id int);",
        ])
        let database = try TestDatabase()
        try Migrator(directory: path).migrate(try database.adminConnection())
        try "CREATE TABLE second (id bigint);".write(toFile: path + "/0002_second.sql", atomically: true, encoding: .utf8)
        let failure = #expect(throws: Migrator.Failure.self) {
            try Migrator(directory: path).migrate(try database.adminConnection())
        }
        #expect(failure == .changedAfterApply(fileName: "0002_second.sql"))
        #expect(failure?.description.contains("0002_second.sql") == true)
        #expect(throws: Migrator.Failure.self) { try Migrator(directory: path).verify(try database.adminConnection()) }
    }

    @Test("a failing migration leaves nothing half-applied")
    func failingMigrationRollsBack() throws {
        let path = try folder([
            "0001_ok.sql": "CREATE TABLE ok (id int);",
            "0002_broken.sql": "CREATE TABLE half (id int); SELECT no_such_function();",
        ])
        let database = try TestDatabase()
        #expect(throws: PostgresError.self) { try Migrator(directory: path).migrate(try database.adminConnection()) }
        let connection = try database.adminConnection()
        #expect(try connection.query("SELECT to_regclass('half') IS NULL AS gone").first!.decode("gone", as: Bool.self))
        let versions = try connection.query("SELECT version FROM schema_migrations").rows.map { try $0.decode("version", as: Int.self) }
        #expect(versions == [1])
    }

    @Test("two migrators started together apply each file exactly once")
    func concurrentMigratorsApplyOnce() throws {
        let path = try folder([
            "0001_counter.sql": "CREATE TABLE runs (file text); INSERT INTO runs VALUES ('0001');",
            "0002_slow.sql": "SELECT pg_sleep(0.3); INSERT INTO runs VALUES ('0002');",
            "0003_more.sql": "INSERT INTO runs VALUES ('0003');",
        ])
        let database = try TestDatabase()
        let migrator = try Migrator(directory: path)
        let results = LockedResults()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                results.append(try migrator.migrate(try database.adminConnection()))
            } catch {
                results.append(["error: \(error)"])
            }
        }
        let all = results.values.flatMap { $0 }
        #expect(all.sorted() == ["0001_counter.sql", "0002_slow.sql", "0003_more.sql"])
        let runs = try database.adminConnection().query("SELECT file FROM runs ORDER BY file").rows.map { try $0.decode("file", as: String.self) }
        #expect(runs == ["0001", "0002", "0003"])
    }

    @Test("a badly named migration file is refused by name")
    func badFileName() throws {
        let path = try folder(["1_short.sql": "SELECT 1;"])
        #expect(throws: Migrator.Failure.badFileName("1_short.sql")) { try Migrator(directory: path) }
    }
}

final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [[String]] = []
    func append(_ value: [String]) { lock.withLock { stored.append(value) } }
    var values: [[String]] { lock.withLock { stored } }
}
