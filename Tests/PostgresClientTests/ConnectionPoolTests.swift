import Foundation
import PostgresClient
import TestSupport
import Testing

@Suite("Connection pool", .onTestThreads)
struct ConnectionPoolTests {
    @Test("an exhausted pool answers with a timeout error instead of hanging")
    func exhaustionTimesOut() throws {
        let database = try TestDatabase()
        let pool = database.appPool(maxConnections: 1, checkoutTimeout: .milliseconds(300))
        let started = Date()
        let error = try pool.withConnection { _ in
            #expect(throws: PostgresError.self) { try pool.withConnection { _ in () } }
        }
        _ = error
        let failure = #expect(throws: PostgresError.self) {
            try pool.withConnection { _ in try pool.withConnection { _ in () } }
        }
        #expect(failure?.kind == .poolTimeout)
        #expect(Date().timeIntervalSince(started) < 5)
        // Once the holder returns its connection, checkouts work again.
        try pool.withConnection { try $0.query("SELECT 1") }
    }

    @Test("a connection returned inside a transaction is rolled back before reuse")
    func openTransactionIsReset() throws {
        let database = try TestDatabase()
        let admin = try database.adminConnection()
        try admin.execute("CREATE TABLE marks (n int)")
        try admin.execute("GRANT SELECT, INSERT ON marks TO portal_app")
        let pool = database.appPool(maxConnections: 1)
        try pool.withConnection { connection in
            try connection.execute("BEGIN")
            try connection.execute("INSERT INTO marks VALUES (1)")
        }
        let count = try pool.withConnection { try $0.query("SELECT count(*) AS n FROM marks").first!.decode("n", as: Int.self) }
        #expect(count == 0)
        try pool.withConnection { connection in
            try connection.execute("BEGIN")
            _ = try? connection.execute("SELECT 1/0")  // leaves the transaction failed
        }
        try pool.withConnection { try $0.query("SELECT 1") }
    }

    @Test("a transaction's settings are gone for the next transaction on the same connection")
    func requestContextDoesNotLeak() throws {
        let database = try TestDatabase()
        let pool = database.appPool(maxConnections: 1)
        let seen = try pool.withTransaction(settings: ["app.session_token": "a-token", "app.guest_token": "another"]) { connection in
            try connection.query("SELECT current_setting('app.session_token', true) AS session, current_setting('app.guest_token', true) AS guest").single()
        }
        #expect(try seen.decode("session", as: String.self) == "a-token")
        #expect(try seen.decode("guest", as: String.self) == "another")
        let after = try pool.withTransaction { connection in
            try connection.query("SELECT coalesce(current_setting('app.session_token', true), '') AS session").single()
        }
        #expect(try after.decode("session", as: String.self) == "")
        #expect(pool.statistics.open == 1)
    }

    @Test("after the cluster restarts, the next checkout works")
    func recoversAfterRestart() throws {
        let cluster = try PrivateCluster()
        defer { cluster.destroy() }
        let pool = ConnectionPool(.init(url: cluster.appURL, maxConnections: 2, checkoutTimeout: .seconds(10)))
        let before = try pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid").first!.decode("pid", as: Int.self) }
        try cluster.restart()
        let after = try pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid").first!.decode("pid", as: Int.self) }
        #expect(after != before)
        // A connection that breaks in the middle of use is replaced too.
        _ = try? pool.withConnection { connection in
            try cluster.restart()
            return try connection.query("SELECT 1")
        }
        try pool.withConnection { try $0.query("SELECT 1") }
    }
}

