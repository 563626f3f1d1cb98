import Foundation
@testable import PostgresClient
import TestSupport
import Testing

@Suite("Pipelines: several statements, one wait", .onTestThreads)
struct PipelineTests {
    @Test("statements come back in order, after one round trip, prepared or not")
    func resultsInOrder() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        let before = connection.roundTrips
        let results = try connection.pipeline([
            ("SELECT \(1)::int AS n" as SQL).prepared(), "SELECT 'two' AS word", ("SELECT \(3)::int + \(4)::int AS n" as SQL).prepared(),
        ])
        #expect(connection.roundTrips == before + 1)
        #expect(try results.map(\.count) == [1, 1, 1])
        #expect(try results[0].single().decode("n", as: Int.self) == 1)
        #expect(try results[1].single().decode("word", as: String.self) == "two")
        #expect(try results[2].single().decode("n", as: Int.self) == 7)
        // The second time the statements are prepared already: still one flight.
        _ = try connection.pipeline([("SELECT \(1)::int AS n" as SQL).prepared(), ("SELECT \(3)::int + \(4)::int AS n" as SQL).prepared()])
        #expect(connection.roundTrips == before + 2)
    }

    @Test("a pipeline that writes is done only when its commit is: a connection lost at the commit is an error, never a success")
    func lostAtTheCommit() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        // A row whose commit ends the connection: its deferred trigger runs at the pipeline's
        // sync, after the insert's own result has come back.
        try connection.execute("CREATE TABLE kept (n integer)")
        try connection.execute("""
            CREATE FUNCTION end_this_connection() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$
            """)
        try connection.execute("""
            CREATE CONSTRAINT TRIGGER at_commit AFTER INSERT ON kept DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW EXECUTE FUNCTION end_this_connection()
            """)
        let failure = #expect(throws: PostgresError.self) { try connection.pipeline(["INSERT INTO kept VALUES (1)", "SELECT 1 AS one"]) }
        #expect(failure?.isConnectionFailure == true, "\(String(describing: failure))")
        #expect(try database.adminConnection().query("SELECT count(*) AS n FROM kept").single().decode("n", as: Int.self) == 0)
    }

    @Test("a read's settings hold for each of its statements and end with it")
    func settingsAreLocalToTheRead() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        let results = try connection.read(settings: ["app.test_marker": "mine"], [
            "SELECT current_setting('app.test_marker', true) AS value", "SELECT current_setting('app.test_marker', true) AS value",
        ])
        #expect(try results.map { try $0.single().decode("value", as: String.self) } == ["mine", "mine"])
        let after = try connection.query("SELECT coalesce(current_setting('app.test_marker', true), '') AS value").single()
        #expect(try after.decode("value", as: String.self) == "")
        #expect(!connection.isInTransaction)
    }

    @Test("an error stops the rest, undoes what went before it and leaves the connection usable")
    func errorAbortsTheWholePipeline() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        try connection.execute("CREATE TABLE notes (id int PRIMARY KEY)")
        let error = #expect(throws: PostgresError.self) {
            try connection.pipeline(["INSERT INTO notes VALUES (1)", "INSERT INTO notes VALUES (1)", "INSERT INTO notes VALUES (2)"])
        }
        #expect(error?.isUniqueViolation == true)
        let count = try connection.query("SELECT count(*) AS n FROM notes").single().decode("n", as: Int.self)
        #expect(count == 0)
        #expect(!connection.isInTransaction)
        #expect(try connection.query("SELECT 1 AS one").single().decode("one", as: Int.self) == 1)
    }

    @Test("inside a transaction a pipeline joins it, and a transaction's BEGIN and settings take one round trip")
    func insideATransaction() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        try connection.execute("CREATE TABLE notes (id int PRIMARY KEY)")
        let before = connection.roundTrips
        try connection.withTransaction(settings: ["app.test_marker": "x"]) { connection in
            let results = try connection.read(settings: [:], [
                "INSERT INTO notes VALUES (1) RETURNING current_setting('app.test_marker') AS marker",
            ])
            #expect(try results[0].single().decode("marker", as: String.self) == "x")
        }
        // BEGIN with the settings, the read, COMMIT.
        #expect(connection.roundTrips == before + 3)
        #expect(try connection.query("SELECT count(*) AS n FROM notes").single().decode("n", as: Int.self) == 1)
    }

    @Test("a transaction's first statements ride with its BEGIN and its last writes with its COMMIT: two round trips in all")
    func firstAndLastFlights() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        try connection.execute("CREATE TABLE notes (id int PRIMARY KEY, marker text)")
        let before = connection.roundTrips
        let written = try connection.withTransaction(settings: ["app.test_marker": "y"], first: ["SELECT count(*) AS n FROM notes"]) { connection, first in
            #expect(try first[0].single().decode("n", as: Int.self) == 0)
            return try connection.commit(after: [
                "INSERT INTO notes VALUES (1, current_setting('app.test_marker')) RETURNING marker", "SELECT count(*) AS n FROM notes",
            ])
        }
        #expect(connection.roundTrips == before + 2)
        #expect(try written[0].single().decode("marker", as: String.self) == "y")
        #expect(try written[1].single().decode("n", as: Int.self) == 1)
        #expect(!connection.isInTransaction)
        // A failing last flight keeps nothing of the transaction.
        #expect(throws: PostgresError.self) {
            try connection.withTransaction(settings: [:], first: ["INSERT INTO notes VALUES (2, 'kept?')"]) { connection, _ in
                try connection.commit(after: ["INSERT INTO notes VALUES (1, 'twice')"])
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.query("SELECT count(*) AS n FROM notes").single().decode("n", as: Int.self) == 1)
    }

    @Test("a statement nested in another keeps its own parameters, renumbered")
    func fragmentsRenumberTheirParameters() throws {
        let inner: SQL = "SELECT \(10)::int AS a, \(20)::int AS b"
        let outer: SQL = "WITH x AS (\(fragment: inner)) SELECT a + b + \(5)::int AS total FROM x WHERE \("$1") <> '' "
        #expect(outer.text == "WITH x AS (SELECT $1::int AS a, $2::int AS b) SELECT a + b + $3::int AS total FROM x WHERE $4 <> '' ")
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        #expect(try connection.query(outer).single().decode("total", as: Int.self) == 35)
    }
}

/// A server connection that already holds one of our statements (a pooler that handed it over
/// from another client of ours): the statement's name is its text's, so it is used as it is.
@Suite("Prepared statements a server connection already holds", .onTestThreads)
struct HeldStatementTests {
    @Test("a statement the server already holds under its name runs, alone or in a pipeline, and the connection goes on")
    func heldAlready() throws {
        let database = try TestDatabase()
        let connection = try database.adminConnection()
        let alone: SQL = ("SELECT \(41)::int + 1 AS n" as SQL).prepared()
        let second: SQL = ("SELECT \(2)::int * \(21)::int AS n" as SQL).prepared()
        // Prepared behind the client's back, as another client of the same server connection would.
        for sql in [alone, second] {
            try connection.execute(SQL(stringLiteral: "PREPARE \(PostgresConnection.statementName(sql.text)) AS \(sql.text)"))
        }
        #expect(try connection.query(alone).single().decode("n", as: Int.self) == 42)
        let both = try connection.pipeline([("SELECT \(1)::int AS n" as SQL).prepared(), second])
        #expect(try both.map { try $0.single().decode("n", as: Int.self) } == [1, 42])
        #expect(try connection.query(alone).single().decode("n", as: Int.self) == 42, "known from then on")
    }
}
