import ExamData
import Foundation
import PostgresClient
import TestSupport
import Testing

/// A `portal_app` connection in an attacker's hands (a compromised server process): each
/// attack is plain SQL as that role, and each must fail and change nothing.
@Suite("A hijacked app role", .onTestThreads)
struct HijackedAppRoleTests {
    final class Fixture {
        let database: TestDatabase
        let pool: ConnectionPool
        let examID: Int
        let student: TestAccount, other: TestAccount, teacher: TestAccount, admin: TestAccount

        init() throws {
            database = try TestDatabase(migrated: true)
            examID = try MiniExam.install(try database.adminConnection())
            student = try database.makeAccount("student")
            other = try database.makeAccount("other")
            teacher = try database.makeAccount("teacher", role: "teacher")
            admin = try database.makeAccount("admin", role: "admin")
            pool = database.appPool()
        }

        func count(_ sql: SQL) throws -> Int {
            try database.superuserConnection().query(sql).single().decode("n", as: Int.self)
        }

        /// A session of the student's (practice unless said), made as the app makes one.
        func session(_ account: TestAccount, mode: StudyMode = .practice) throws -> UUID {
            try pool.asCaller(account) { connection in
                try StudyStore().create(NewStudySession(
                    userID: account.id, examID: examID, mode: mode, config: [:], questionIDs: MiniExam.items.map(\.id), startedAt: Date()), connection)
            }
        }
    }

    @Test("claiming to be an admin in a setting grants nothing: no other user is visible, and no password hash at all")
    func settingsGrantNothing() throws {
        let fixture = try Fixture()
        let seen = try fixture.pool.withTransaction(settings: ["app.role": "admin", "app.user_id": fixture.admin.id.uuidString]) { connection in
            try connection.query("SELECT count(*) AS n FROM users").single().decode("n", as: Int.self)
        }
        #expect(seen == 0)
        // Not even with the student's own session: the hashes are not the app's to read.
        for statement: SQL in ["SELECT password_hash FROM users", "SELECT token_hash FROM auth_sessions"] {
            let refused = #expect(throws: PostgresError.self) { try fixture.pool.asCaller(fixture.admin) { try $0.query(statement) } }
            #expect(refused?.isInsufficientPrivilege == true)
        }
        // Sign-in hands over salt and cost only, never the hash.
        let columns = try fixture.pool.withConnection { try $0.query("SELECT * FROM auth_login_begin('admin', '203.0.113.9')").columns }
        #expect(columns == ["attempt", "salt", "memlimit", "opslimit", "retry_after"])
    }

    @Test("no password is reset without a live code made for that account by its teacher or an admin: portal_app cannot mint, read or guess one")
    func noResetWithoutCode() throws {
        let fixture = try Fixture()
        let before = try fixture.count("SELECT count(*) AS n FROM users WHERE username = 'student' AND password_hash LIKE '$argon2id$%'")
        let guess = PostgresBytes(Array(repeating: 1, count: 32))
        // Without a code, with a made-up one: nobody is signed in, nothing changes.
        let taken = try fixture.pool.withConnection {
            try $0.query("SELECT user_id FROM auth_reset_password('student', \(guess), 'x', 'token-token-token-token-token-token-12', 'c', 'ua', '203.0.113.7')")
                .single().decode("user_id", as: UUID?.self)
        }
        #expect(taken == nil)
        // A student (themselves or another), a teacher of no class of theirs: no code is made.
        for caller in [fixture.student, fixture.other, fixture.teacher] {
            let issued = try fixture.pool.asCaller(caller) {
                try $0.query("SELECT auth_issue_reset(\(fixture.student.id), \(guess)) AS outcome").single().decode("outcome", as: String.self)
            }
            #expect(issued == "unknown")
        }
        // The codes' table is not the app's to write or read, even as an admin.
        for statement: SQL in [
            "INSERT INTO password_resets (user_id, code_hash, issued_at, expires_at) VALUES (\(fixture.student.id), \(guess), now(), now() + interval '1 day')",
            "SELECT code_hash FROM password_resets",
        ] {
            let refused = #expect(throws: PostgresError.self) { try fixture.pool.asCaller(fixture.admin) { try $0.query(statement) } }
            #expect(refused?.isInsufficientPrivilege == true)
        }
        #expect(try fixture.count("SELECT count(*) AS n FROM password_resets") == 0)
        #expect(try fixture.count("SELECT count(*) AS n FROM users WHERE username = 'student' AND password_hash LIKE '$argon2id$%'") == before)
        #expect(try fixture.count("SELECT count(*) AS n FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE u.username = 'student'") == 1)
    }

    @Test("recovery by e-mail: portal_app can ask for a link to the account's own verified address, but never learns its token, picks the recipient, reads the outbox or another's address, or verifies an address without its link")
    func noMailTokenForTheApp() throws {
        let fixture = try Fixture()
        // The student's address, verified (as the link would have done).
        try fixture.database.superuserConnection().execute(
            "INSERT INTO user_emails (user_id, email, verified_at) VALUES (\(fixture.student.id), 'student@pupils.example', now())")
        let wording: SQL = "'en', 'Reset', 'Open {link}', '<a href=\"{link}\">open</a>'"
        let wait = try fixture.pool.withConnection {
            try $0.query("SELECT auth_request_reset_mail('student', '203.0.113.7', \(fragment: wording)) AS wait").single().decode("wait", as: Int.self)
        }
        #expect(wait == 0)
        #expect(try fixture.count("SELECT count(*) AS n FROM mail_outbox WHERE recipient = 'student@pupils.example' AND secret ~ '^[0-9a-f]{64}$'") == 1,
                "the database made the token and chose the recipient")
        // The outbox, the sender's functions, the queue itself and the links are not the app's.
        for statement: SQL in [
            "SELECT secret FROM mail_outbox", "SELECT * FROM mail_take_due(10)", "SELECT mail_sent(gen_random_uuid())",
            "SELECT mail_queue('password-reset', 'attacker@evil.example', '', 'en', 's', 't', 'h', '/reset/', 'x')", "SELECT mail_token()",
            "SELECT token_hash FROM email_verifications", "INSERT INTO user_emails (user_id, email, verified_at) VALUES (\(fixture.other.id), 'attacker@evil.example', now())",
        ] {
            let refused = #expect(throws: PostgresError.self) { try fixture.pool.asCaller(fixture.admin) { try $0.query(statement) } }
            #expect(refused?.isInsufficientPrivilege == true, "\(statement)")
        }
        // Another account's address is not visible, even the student's own session sees only theirs.
        let seen = try fixture.pool.asCaller(fixture.other) { try $0.query("SELECT count(*) AS n FROM user_emails").single().decode("n", as: Int.self) }
        #expect(seen == 0)
        // A guessed token sets no password and proves no address.
        let guess = String(repeating: "ab", count: 32)
        let reset = try fixture.pool.withConnection {
            try $0.query("SELECT auth_reset_by_link(\(guess), '$argon2id$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA', 'token-token-token-token-token-token-12', 'c', 'ua') AS id")
                .single().decode("id", as: UUID?.self)
        }
        #expect(reset == nil)
        let verified = try fixture.pool.withConnection {
            try $0.query("SELECT auth_verify_email(\(guess), \(fragment: wording)) AS outcome").single().decode("outcome", as: String.self)
        }
        #expect(verified == "expired")
        // Asking for another address queues a link to that address, and changes nothing until it is opened.
        let asked = try fixture.pool.asCaller(fixture.student) {
            try $0.query("SELECT auth_request_email('attacker@evil.example', \(fragment: wording)) AS outcome").single().decode("outcome", as: String.self)
        }
        #expect(asked == "sent")
        #expect(try fixture.count("SELECT count(*) AS n FROM user_emails WHERE email = 'student@pupils.example'") == 1)
        #expect(try fixture.count("SELECT count(*) AS n FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE u.username = 'student'") == 1)
    }

    @Test("no account is deleted without the database's own check: not by the erasing function, not with a made-up proof, not by a student naming another, not by plain SQL")
    func noDeletionWithoutProof() throws {
        let fixture = try Fixture()
        let session = try fixture.session(fixture.student)
        let guess = PostgresBytes(Array(repeating: 7, count: 32))
        for statement: SQL in [
            "SELECT account_erase(\(fixture.student.id), NULL, 'self')", "DELETE FROM users WHERE id = \(fixture.student.id)",
            "UPDATE answers SET user_id = NULL", "UPDATE study_sessions SET anonymous_key = gen_random_uuid() WHERE id = \(session)",
        ] {
            let refused = #expect(throws: PostgresError.self) { try fixture.pool.asCaller(fixture.student) { try $0.execute(statement) } }
            #expect(refused?.isInsufficientPrivilege == true, "\(statement)")
        }
        let attempt = try fixture.pool.withConnection {
            try $0.query("SELECT attempt FROM auth_login_begin('student', '203.0.113.9')").single().decode("attempt", as: UUID.self)
        }
        let own = try fixture.pool.asCaller(fixture.student) {
            try $0.query("SELECT auth_delete_own_account(\(attempt), \(guess)) AS outcome").single().decode("outcome", as: String.self)
        }
        #expect(own == "wrong")
        let byStudent = try fixture.pool.asCaller(fixture.student) {
            try $0.query("SELECT admin_delete_account(\(fixture.other.id)) AS deleted").single().decode("deleted", as: Bool.self)
        }
        #expect(!byStudent)
        let nobody = try fixture.pool.withConnection {
            try $0.query("SELECT auth_delete_own_account(NULL, NULL) AS outcome").single().decode("outcome", as: String.self)
        }
        #expect(nobody == "unknown")
        #expect(try fixture.count("SELECT count(*) AS n FROM users WHERE username IN ('student', 'other')") == 2)
        #expect(try fixture.count("SELECT count(*) AS n FROM study_sessions WHERE user_id = \(fixture.student.id)") == 1)
    }

    @Test("no teacher-made account without the database's checks: nobody but the class's teacher makes one, and no account can be written with a maker by hand")
    func noTeacherMadeAccountWithoutChecks() throws {
        let fixture = try Fixture()
        let owner = try fixture.database.superuserConnection()
        let classID = try owner.query("""
            INSERT INTO classes (teacher_id, name, join_code, created_at) VALUES (\(fixture.teacher.id), 'Year 7', 'ABCDEFGH', now()) RETURNING id
            """).single().decode("id", as: UUID.self)
        let people = #"[{"name": "Kid", "username": "kid", "code": "\#(String(repeating: "ab", count: 32))"}]"#
        for caller in [fixture.student, fixture.other] {
            let refused = #expect(throws: PostgresError.self) {
                try fixture.pool.asCaller(caller) { try $0.query("SELECT * FROM teacher_make_accounts(\(classID), \(people)::jsonb)") }
            }
            #expect(refused?.isInsufficientPrivilege == true)
        }
        let byHand = #expect(throws: PostgresError.self) {
            try fixture.pool.asCaller(fixture.teacher) {
                try $0.execute("INSERT INTO users (username, display_name, role, made_by, created_at) VALUES ('kid2', 'Kid', 'student', \(fixture.teacher.id), now())")
            }
        }
        #expect(byHand?.isInsufficientPrivilege == true)
        #expect(try fixture.count("SELECT count(*) AS n FROM users WHERE made_by IS NOT NULL") == 0)
        // The class's teacher does make one, through the function, which the database audits.
        let made = try fixture.pool.asCaller(fixture.teacher) { try $0.query("SELECT * FROM teacher_make_accounts(\(classID), \(people)::jsonb)").rows.count }
        #expect(made == 1)
        #expect(try fixture.count("SELECT count(*) AS n FROM audit_log WHERE action = 'class.accounts-made'") == 1)
    }

    @Test("no function makes a session for a user id the caller names, and a wrong proof signs nobody in")
    func noSessionWithoutProof() throws {
        let fixture = try Fixture()
        let missing = #expect(throws: PostgresError.self) {
            try fixture.pool.withConnection { try $0.execute("SELECT auth_create_session(\(fixture.admin.id), sha256('x'), 'c', now(), 'agent')") }
        }
        #expect(missing?.sqlState == "42883", "auth_create_session is gone")
        let created = #expect(throws: PostgresError.self) {
            try fixture.pool.withConnection { try $0.execute("SELECT auth_create_user('intruder', 'I', '$argon2id$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA', 'admin')") }
        }
        #expect(created?.isInsufficientPrivilege == true)
        let sessionsBefore = try fixture.count("SELECT count(*) AS n FROM auth_sessions")
        let signedIn = try fixture.pool.withConnection { connection -> UUID? in
            guard case .attempt(let attempt, _, _, _) = try AccountStore().beginLogin(username: "admin", address: "203.0.113.9", connection) else { return nil }
            return try AccountStore().finishLogin(
                attempt: attempt, proof: [UInt8](repeating: 0, count: 32), token: "forged-token-forged-token-forged-token-xxxx", csrfToken: "c",
                userAgent: "", address: "203.0.113.9", connection)
        }
        #expect(signedIn == nil)
        // And finishing without a reserved attempt (skipping the limit) is no way in either.
        let skipped = try fixture.pool.withConnection {
            try AccountStore().finishLogin(
                attempt: UUID(), proof: [UInt8](repeating: 0, count: 32), token: "t", csrfToken: "c", userAgent: "", address: "203.0.113.9", $0)
        }
        #expect(skipped == nil)
        #expect(try fixture.count("SELECT count(*) AS n FROM auth_sessions") == sessionsBefore)
    }

    @Test("a teacher cannot bring back a student who left, and then reads nothing of theirs")
    func noUnleave() throws {
        let fixture = try Fixture()
        let classID = try fixture.pool.asCaller(fixture.teacher) { connection in
            try SchoolStore().createClass(name: "Year 9", schoolName: nil, joinCode: "ABCDEFGH", at: Date(), connection)
        }
        let joined = try fixture.pool.asCaller(fixture.student) { try SchoolStore().join(code: "abcdefgh", $0) }
        #expect(joined == classID)
        _ = try fixture.session(fixture.student)
        #expect(try fixture.pool.asCaller(fixture.student) { try SchoolStore().leave(classID: try #require(classID), userID: fixture.student.id, at: Date(), $0) })
        let restored = try fixture.pool.asCaller(fixture.teacher) { connection in
            try connection.execute("UPDATE class_members SET left_at = NULL WHERE user_id = \(fixture.student.id)")
        }
        #expect(restored == 0)
        // Nor by adding them again.
        let added = #expect(throws: PostgresError.self) {
            try fixture.pool.asCaller(fixture.teacher) { connection in
                try connection.execute("INSERT INTO class_members (class_id, user_id, joined_at) VALUES (\(classID), \(fixture.student.id), now())")
            }
        }
        #expect(added?.isInsufficientPrivilege == true)
        let seen = try fixture.pool.asCaller(fixture.teacher) { connection in
            (try connection.query("SELECT count(*) AS n FROM study_sessions").single().decode("n", as: Int.self),
             try connection.query("SELECT count(*) AS n FROM users WHERE id = \(fixture.student.id)").single().decode("n", as: Int.self))
        }
        #expect(seen.0 == 0 && seen.1 == 0)
        #expect(try fixture.count("SELECT count(*) AS n FROM class_members WHERE left_at IS NULL") == 0)
    }

    @Test("a student cannot insert answers to another exam's questions, nor claim a wrong answer right")
    func answersCheckedByTheDatabase() throws {
        let fixture = try Fixture()
        let owner = try fixture.database.adminConnection()
        // A question of another exam.
        try owner.execute("""
            WITH e AS (INSERT INTO exams (region_id, slug, title, language, pass_mark, time_limit_s, question_count)
                       SELECT region_id, 'other', 'Other', 'en', 50, 600, 1 FROM exams WHERE id = \(fixture.examID) RETURNING id),
                 d AS (INSERT INTO domains (exam_id, slug, title, weight) SELECT id, 'x', 'X', 100 FROM e RETURNING id)
            INSERT INTO questions (id, domain_id, type, stem, options, correct, difficulty, status)
            SELECT '00000000-0000-4000-8000-00000000ffff', id, 'single-choice', 'Elsewhere?', '[{"id":"a","text":"A"},{"id":"b","text":"B"}]', '[0]', 5, 'published' FROM d
            """)
        let session = try fixture.session(fixture.student)
        let foreign = #expect(throws: PostgresError.self) {
            try fixture.pool.asCaller(fixture.student) { connection in
                try connection.execute("""
                    INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at)
                    VALUES (gen_random_uuid(), \(session), \(fixture.student.id), '00000000-0000-4000-8000-00000000ffff', 1, '[0]', true, 1, 4, 1, now())
                    """)
            }
        }
        #expect(foreign?.isCheckViolation == true)
        let item = MiniExam.items[0]
        _ = try fixture.pool.asCaller(fixture.student) { connection in
            try connection.execute("""
                INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at)
                VALUES (gen_random_uuid(), \(session), \(fixture.student.id), \(item.id), 1, \(try PostgresJSON(encoding: item.wrong))::jsonb, true, 1, 4, 1, now())
                """)
        }
        #expect(try fixture.count("SELECT count(*) AS n FROM answers WHERE correct OR score > 0 OR rating <> 1") == 0, "the database decides it is wrong")
        // Nor into someone else's session, nor a second answer to the same question.
        let otherSession = try fixture.session(fixture.other)
        #expect(throws: PostgresError.self) {
            try fixture.pool.asCaller(fixture.student) { connection in
                try connection.execute("""
                    INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, time_ms, answered_at)
                    VALUES (gen_random_uuid(), \(otherSession), \(fixture.student.id), \(item.id), 1, '[0]', true, 1, 1, now())
                    """)
            }
        }
        #expect(throws: PostgresError.self) {
            try fixture.pool.asCaller(fixture.student) { connection in
                try connection.execute("""
                    INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, time_ms, answered_at)
                    VALUES (gen_random_uuid(), \(session), \(fixture.student.id), \(item.id), 1, \(try PostgresJSON(encoding: item.key))::jsonb, true, 1, 1, now())
                    """)
            }
        }
        #expect(try fixture.count("SELECT count(*) AS n FROM answers") == 1)
    }

    @Test("a student cannot score their own session: no score columns to write, and finishing is the database's sum")
    func scoresAreTheDatabases() throws {
        let fixture = try Fixture()
        let session = try fixture.session(fixture.student)
        let forged = #expect(throws: PostgresError.self) {
            try fixture.pool.asCaller(fixture.student) { connection in
                try connection.execute("UPDATE study_sessions SET score_percent = 100, passed = true WHERE id = \(session)")
            }
        }
        #expect(forged?.isInsufficientPrivilege == true)
        let early = #expect(throws: PostgresError.self) {
            try fixture.pool.asCaller(fixture.student) { connection in
                try connection.execute("""
                    INSERT INTO study_sessions (user_id, exam_id, mode, question_ids, started_at, finished_at, score_correct, score_percent, passed)
                    VALUES (\(fixture.student.id), \(fixture.examID), 'practice', ARRAY[\(MiniExam.items[0].id)]::uuid[], now(), now(), 1, 100, true)
                    """)
            }
        }
        #expect(early?.isCheckViolation == true)
        #expect(try fixture.pool.asCaller(fixture.student) { try StudyStore().finish(sessionID: session, at: Date(), $0) })
        #expect(try fixture.count("SELECT count(*) AS n FROM study_sessions WHERE id = \(session) AND score_percent = 0 AND NOT passed") == 1)
        // Someone else's session is not the caller's to finish.
        let others = try fixture.session(fixture.other)
        #expect(try fixture.pool.asCaller(fixture.student) { try StudyStore().finish(sessionID: others, at: Date(), $0) } == false)
        // A mock exam's deadline is the database's: its time limit from a start that is now.
        let mock = try fixture.session(fixture.student, mode: .mock)
        #expect(try fixture.count("SELECT count(*) AS n FROM study_sessions WHERE id = \(mock) AND deadline_at - started_at = make_interval(secs => \(MiniExam.timeLimitSeconds))") == 1)
        let backdated = #expect(throws: PostgresError.self) {
            try fixture.pool.asCaller(fixture.student) { connection in
                try StudyStore().create(NewStudySession(
                    userID: fixture.student.id, examID: fixture.examID, mode: .mock, config: [:], questionIDs: [MiniExam.items[0].id],
                    startedAt: Date().addingTimeInterval(86_400)), connection)
            }
        }
        #expect(backdated?.isCheckViolation == true)
    }

    @Test("a temporary table cannot stand in for live_events: the app role makes no temporary objects")
    func noTemporaryShadow() throws {
        let fixture = try Fixture()
        let refused = #expect(throws: PostgresError.self) {
            try fixture.pool.asCaller(fixture.student) { connection in
                try connection.execute("CREATE TEMP TABLE live_events (id uuid, host_id uuid)")
            }
        }
        #expect(refused?.isInsufficientPrivilege == true)
        #expect(try fixture.pool.asCaller(fixture.student) { try $0.query("SELECT live_is_host(gen_random_uuid()) AS host").single().decode("host", as: Bool.self) } == false)
        // Nor write an event's results by hand.
        let results = #expect(throws: PostgresError.self) {
            try fixture.pool.asCaller(fixture.teacher) { connection in
                try connection.execute("INSERT INTO event_results (event_id, participant_id, nickname, rank, points, correct) VALUES (gen_random_uuid(), gen_random_uuid(), 'x', 1, 99999, 9)")
            }
        }
        #expect(results?.isInsufficientPrivilege == true)
    }

    @Test("every definer function fixes its search path, and the app role owns nothing it could replace")
    func definerFunctionsAreFixed() throws {
        let fixture = try Fixture()
        let loose = try fixture.database.superuserConnection().query("""
            SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'public' AND p.prosecdef
              AND NOT EXISTS (SELECT 1 FROM unnest(coalesce(p.proconfig, '{}')) AS c WHERE c = 'search_path=pg_catalog, public, pg_temp')
            """).rows.map { try $0.decode("proname", as: String.self) }
        #expect(loose.isEmpty, "definer functions without a fixed search path: \(loose)")
    }
}
