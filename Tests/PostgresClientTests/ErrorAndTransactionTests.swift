import Foundation
import PostgresClient
import TestSupport
import Testing

@Suite("Errors and transactions", .onTestThreads)
struct ErrorAndTransactionTests {
    private func schema(_ connection: PostgresConnection) throws {
        try connection.execute("CREATE TABLE parents (id int PRIMARY KEY)")
        try connection.execute("""
            CREATE TABLE children (id int PRIMARY KEY, parent int REFERENCES parents(id),
                                   score int CONSTRAINT score_in_range CHECK (score BETWEEN 0 AND 100))
            """)
    }

    @Test("constraint violations are told apart and carry the constraint's name")
    func constraintViolations() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        try schema(connection)
        try connection.execute("INSERT INTO parents VALUES (1)")

        let unique = #expect(throws: PostgresError.self) { try connection.execute("INSERT INTO parents VALUES (1)") }
        #expect(unique?.isUniqueViolation == true)
        #expect(unique?.constraint == "parents_pkey")
        #expect(unique?.detail?.contains("(id)=(1)") == true)

        let check = #expect(throws: PostgresError.self) { try connection.execute("INSERT INTO children VALUES (1, 1, 101)") }
        #expect(check?.isCheckViolation == true)
        #expect(check?.constraint == "score_in_range")

        let foreign = #expect(throws: PostgresError.self) { try connection.execute("INSERT INTO children VALUES (2, 99, 50)") }
        #expect(foreign?.isForeignKeyViolation == true)
        #expect(foreign?.sqlState == "23503")
    }

    @Test("a row-level security refusal is recognisable as 42501")
    func rowLevelSecurityRefusal() throws {
        let database = try TestDatabase()
        let admin = try database.adminConnection()
        try admin.execute("CREATE TABLE notes (owner uuid NOT NULL, body text)")
        try admin.execute("ALTER TABLE notes ENABLE ROW LEVEL SECURITY")
        try admin.execute("CREATE POLICY own ON notes USING (owner = current_setting('test.owner')::uuid) WITH CHECK (owner = current_setting('test.owner')::uuid)")
        try admin.execute("DO $$ BEGIN EXECUTE format('GRANT SELECT, INSERT ON notes TO %I', 'portal_app'); END $$")
        let pool = database.appPool()
        let me = UUID(), someoneElse = UUID()
        try pool.withTransaction(settings: ["test.owner": me.uuidString]) { connection in
            try connection.execute("INSERT INTO notes VALUES (\(me), 'mine')")
        }
        let refused = #expect(throws: PostgresError.self) {
            try pool.withTransaction(settings: ["test.owner": me.uuidString]) { connection in
                try connection.execute("INSERT INTO notes VALUES (\(someoneElse), 'not mine')")
            }
        }
        #expect(refused?.isInsufficientPrivilege == true)
    }

    @Test("a failing statement rolls its transaction back and the connection stays usable")
    func failureRollsBack() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        try schema(connection)
        #expect(throws: PostgresError.self) {
            try connection.withTransaction { connection in
                try connection.execute("INSERT INTO parents VALUES (7)")
                try connection.execute("INSERT INTO parents VALUES (7)")
            }
        }
        #expect(!connection.isInTransaction)
        let count = try connection.query("SELECT count(*) AS n FROM parents").first!.decode("n", as: Int.self)
        #expect(count == 0)
        try connection.execute("INSERT INTO parents VALUES (8)")
        #expect(try connection.query("SELECT count(*) AS n FROM parents").first!.decode("n", as: Int.self) == 1)
    }

    @Test("an error thrown by Swift code inside a transaction rolls it back too")
    func swiftErrorRollsBack() throws {
        struct Abandon: Error {}
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        try schema(connection)
        #expect(throws: Abandon.self) {
            try connection.withTransaction { connection in
                try connection.execute("INSERT INTO parents VALUES (1)")
                throw Abandon()
            }
        }
        #expect(try connection.query("SELECT count(*) AS n FROM parents").first!.decode("n", as: Int.self) == 0)
    }

    /// Whether `body` failed with a database error under a savepoint (and so was undone).
    static func failsUnderSavepoint(_ connection: PostgresConnection, _ body: () throws -> Void) -> Bool {
        do {
            try connection.withSavepoint(body)
            return false
        } catch {
            return error is PostgresError
        }
    }

    @Test("a failure under a savepoint undoes only what it did; the transaction goes on, nested savepoints included")
    func savepoints() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        try schema(connection)
        try connection.withTransaction { connection in
            try connection.execute("INSERT INTO parents VALUES (1)")
            let failed = Self.failsUnderSavepoint(connection) {
                try connection.execute("INSERT INTO parents VALUES (2)")
                try connection.execute("INSERT INTO parents VALUES (2)")
            }
            #expect(failed)
            try connection.withSavepoint {
                try connection.execute("INSERT INTO parents VALUES (3)")
                // An inner failure leaves the outer savepoint's work in place.
                let innerFailed = Self.failsUnderSavepoint(connection) { try connection.execute("INSERT INTO parents VALUES (3)") }
                #expect(innerFailed)
                try connection.execute("INSERT INTO parents VALUES (4)")
            }
        }
        let kept = try connection.query("SELECT array_agg(id ORDER BY id) AS ids FROM parents").first!.decode("ids", as: [Int].self)
        #expect(kept == [1, 3, 4])
    }
}
