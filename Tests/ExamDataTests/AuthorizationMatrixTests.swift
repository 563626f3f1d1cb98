import ExamData
import Foundation
import PostgresClient
import TestSupport
import Testing

/// What the database itself allows the app role, whatever a handler does: every per-user
/// table, every kind of caller, every kind of statement, through real `portal_app` connections.
@Suite("Row-level authorization matrix", .onTestThreads)
struct AuthorizationMatrixTests {
    struct People {
        let studentA: TestAccount, studentB: TestAccount, teacher: TestAccount, admin: TestAccount
    }

    private func setUp() throws -> (TestDatabase, ConnectionPool, People) {
        let database = try TestDatabase(migrated: true)
        let people = People(
            studentA: try database.makeAccount("student-a"), studentB: try database.makeAccount("student-b"),
            teacher: try database.makeAccount("teacher", role: "teacher"), admin: try database.makeAccount("admin", role: "admin"))
        return (database, database.appPool(), people)
    }

    enum Caller: String, CaseIterable, Sendable { case anonymous, studentA, studentB, teacher, admin }

    /// The caller's account (its session cookie is who they are), nil for a visitor.
    private func account(_ caller: Caller, _ people: People) -> TestAccount? {
        switch caller {
        case .anonymous: nil
        case .studentA: people.studentA
        case .studentB: people.studentB
        case .teacher: people.teacher
        case .admin: people.admin
        }
    }

    private func own(_ caller: Caller, _ people: People) -> UUID? { account(caller, people)?.id }

    @Test("an unfiltered SELECT * sees only what the caller may", arguments: Caller.allCases)
    func unfilteredSelect(_ caller: Caller) throws {
        let (database, pool, people) = try setUp()
        _ = database
        let (users, sessions) = try pool.asCaller(account(caller, people)) { connection in
            (try connection.query("SELECT id FROM users").rows.map { try $0.decode("id", as: UUID.self) },
             try connection.query("SELECT user_id FROM auth_sessions").rows.map { try $0.decode("user_id", as: UUID.self) })
        }
        switch caller {
        case .anonymous:
            #expect(users.isEmpty && sessions.isEmpty)
        case .admin:
            #expect(users.count == 4 && sessions.count == 4)
        default:
            // Students see themselves only; teachers too, until classes let them see their pupils.
            #expect(users == [own(caller, people)!])
            #expect(sessions == [own(caller, people)!])
        }
    }

    @Test("nobody reads a password hash, a session's token hash or its CSRF token, an admin included", arguments: Caller.allCases)
    func secretColumns(_ caller: Caller) throws {
        let (database, pool, people) = try setUp()
        _ = database
        for statement: SQL in [
            "SELECT * FROM users", "SELECT password_hash FROM users", "SELECT token_hash FROM auth_sessions", "SELECT csrf_token FROM auth_sessions",
        ] {
            let error = #expect(throws: PostgresError.self) {
                try pool.asCaller(account(caller, people)) { try $0.query(statement) }
            }
            #expect(error?.isInsufficientPrivilege == true, "\(statement)")
        }
    }

    @Test("nobody inserts users or sessions directly; a row owned by someone else is refused with 42501", arguments: Caller.allCases)
    func inserts(_ caller: Caller) throws {
        let (database, pool, people) = try setUp()
        _ = database
        for statement: SQL in [
            "INSERT INTO users (username, display_name, password_hash) VALUES ('intruder', 'I', '$argon2id$x')",
            "INSERT INTO auth_sessions (user_id, token_hash, csrf_token, created_at, last_seen_at) VALUES (\(people.studentB.id), sha256('x'), 'c', now(), now())",
        ] {
            let error = #expect(throws: PostgresError.self) {
                try pool.asCaller(account(caller, people)) { try $0.execute(statement) }
            }
            #expect(error?.isInsufficientPrivilege == true)
        }
    }

    @Test("updates reach only the caller's own row, and never the role column", arguments: Caller.allCases)
    func updates(_ caller: Caller) throws {
        let (database, pool, people) = try setUp()
        let changed = try pool.asCaller(account(caller, people)) { connection in
            try connection.execute("UPDATE users SET display_name = 'changed'")
        }
        #expect(changed == (caller == .anonymous ? 0 : 1))
        let escalation = #expect(throws: PostgresError.self) {
            try pool.asCaller(account(caller, people)) { try $0.execute("UPDATE users SET role = 'admin'") }
        }
        #expect(escalation?.isInsufficientPrivilege == true)
        let owner = try database.adminConnection()
        try owner.execute("SET ROLE portal_auth")
        let renamed = try owner.query("SELECT id FROM users WHERE display_name = 'changed'").rows.map { try $0.decode("id", as: UUID.self) }
        #expect(renamed == (own(caller, people).map { [$0] } ?? []))
    }

    @Test("deletes reach only the caller's own sessions; users cannot be deleted", arguments: Caller.allCases)
    func deletes(_ caller: Caller) throws {
        let (database, pool, people) = try setUp()
        _ = database
        let ended = try pool.asCaller(account(caller, people)) { try $0.execute("DELETE FROM auth_sessions") }
        #expect(ended == (caller == .anonymous ? 0 : 1))
        let error = #expect(throws: PostgresError.self) {
            try pool.asCaller(account(caller, people)) { try $0.execute("DELETE FROM users") }
        }
        #expect(error?.isInsufficientPrivilege == true)
    }

    @Test("every table holding per-user rows forces row-level security, so a new one cannot slip through")
    func everyPerUserTableForcesRLS() throws {
        let database = try TestDatabase(migrated: true)
        let rows = try database.adminConnection().query("""
            SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity,
                   EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid) AS has_policy
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind = 'r'
              AND (c.relname = 'users' OR EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'user_id' AND NOT a.attisdropped))
            """).rows
        #expect(rows.count >= 2)
        for row in rows {
            let name = try row.decode("relname", as: String.self)
            #expect(try row.decode("relrowsecurity", as: Bool.self), "\(name) lacks ENABLE ROW LEVEL SECURITY")
            #expect(try row.decode("relforcerowsecurity", as: Bool.self), "\(name) lacks FORCE ROW LEVEL SECURITY")
            #expect(try row.decode("has_policy", as: Bool.self), "\(name) has no policy")
        }
    }

    @Test("the app role owns nothing and cannot bypass row-level security")
    func appRoleIsPlain() throws {
        let database = try TestDatabase(migrated: true)
        let row = try database.adminConnection().query("""
            SELECT r.rolsuper, r.rolbypassrls,
                   (SELECT count(*) FROM pg_class c WHERE c.relowner = r.oid) AS owned
            FROM pg_roles r WHERE r.rolname = 'portal_app'
            """).single()
        #expect(try !row.decode("rolsuper", as: Bool.self))
        #expect(try !row.decode("rolbypassrls", as: Bool.self))
        #expect(try row.decode("owned", as: Int.self) == 0)
    }
}
