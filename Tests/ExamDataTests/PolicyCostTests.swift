import ExamData
import Foundation
import PostgresClient
import TestSupport
import Testing

/// What row-level security costs a student's own statements, read from PostgreSQL's own
/// account of running them (`EXPLAIN (ANALYZE, VERBOSE)` as `portal_app`): a student's rows are
/// settled by the owner's policy, so the lookups that only a teacher's or an admin's access needs
/// never run for them.
@Suite("Row-level security on a student's own rows", .onTestThreads)
struct PolicyCostTests {
    final class Fixture {
        let database: TestDatabase
        let pool: ConnectionPool
        let student: TestAccount, teacher: TestAccount
        let sessionID: UUID

        init() throws {
            database = try TestDatabase(migrated: true)
            let examID = try MiniExam.install(try database.adminConnection())
            student = try database.makeAccount("student")
            teacher = try database.makeAccount("teacher", role: "teacher")
            pool = database.appPool()
            let student = student
            sessionID = try pool.asCaller(student) { connection in
                try StudyStore().create(NewStudySession(
                    userID: student.id, examID: examID, mode: .practice, config: [:], questionIDs: MiniExam.items.map(\.id), startedAt: Date()), connection)
            }
            let item = MiniExam.items[0]
            try pool.asCaller(student) { connection in
                _ = try AnswerRecorder().record(RecordedAnswer(
                    id: UUID(), sessionID: sessionID, questionID: item.id, questionVersion: 1, response: .indexes(item.key), correct: true, score: 1,
                    rating: .good, milliseconds: 4_000, answeredAt: Date()), userID: student.id, connection)
            }
            // The answer made the student's card (the database reviews it as it admits the answer).
            #expect(try database.superuserConnection().query("SELECT count(*)::int AS n FROM review_cards WHERE user_id = \(student.id)").single().decode("n", as: Int.self) == 1)
        }

        /// How many times each "who is asking" helper ran while `account` ran `statement`.
        func helperRuns(_ account: TestAccount, _ statement: String) throws -> [String: Int] {
            let plan = try pool.asCaller(account) { connection in
                try connection.query(SQL(stringLiteral: "EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) " + statement)).single().decode("QUERY PLAN", as: String.self)
            }
            let document = try #require(try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [[String: Any]])
            var runs: [String: Int] = [:]
            func walk(_ node: [String: Any]) {
                if (node["Subplan Name"] as? String)?.hasPrefix("InitPlan") == true {
                    for output in node["Output"] as? [String] ?? [] {
                        for helper in ["app_students()", "app_role()", "app_user_id()"] where output.contains(helper) {
                            runs[helper, default: 0] += node["Actual Loops"] as? Int ?? 0
                        }
                    }
                }
                for child in node["Plans"] as? [[String: Any]] ?? [] { walk(child) }
            }
            for entry in document { if let root = entry["Plan"] as? [String: Any] { walk(root) } }
            return runs
        }
    }

    @Test("a student's reads and locks of their own sessions, answers, cards and account never ask who their students are")
    func ownRowsSkipTeacherLookups() throws {
        let fixture = try Fixture()
        let session = fixture.sessionID.uuidString
        let statements = [
            "SELECT * FROM answers WHERE session_id = '\(session)'",
            "SELECT * FROM counted_answers WHERE session_id = '\(session)'",
            "SELECT id FROM study_sessions WHERE id = '\(session)' FOR UPDATE",
            "SELECT * FROM review_cards WHERE user_id = '\(fixture.student.id)'",
            "SELECT id, display_name FROM users WHERE id = '\(fixture.student.id)'",
        ]
        for statement in statements {
            let runs = try fixture.helperRuns(fixture.student, statement)
            #expect(runs["app_students()", default: 0] == 0, "\(statement): \(runs)")
            #expect(runs["app_role()", default: 0] == 0, "\(statement): \(runs)")
            #expect(runs["app_user_id()", default: 0] >= 1, "\(statement): \(runs)")
        }
        // The same read by a teacher (who may only see their classes' students) does ask: the
        // count above is of something that happens.
        let teacherRuns = try fixture.helperRuns(fixture.teacher, statements[0])
        #expect(teacherRuns["app_students()", default: 0] >= 1, "\(teacherRuns)")
    }

    @Test("the answer admission check says nothing about a session that is not the caller's, even naming its owner")
    func admissionRevealsNothing() throws {
        let fixture = try Fixture()
        let other = try fixture.database.makeAccount("other")
        try fixture.database.superuserConnection().execute("UPDATE study_sessions SET finished_at = now(), score_correct = 0, score_percent = 0, passed = false WHERE id = \(fixture.sessionID)")
        let item = MiniExam.items[1]
        for claimed in [other.id, fixture.student.id] {
            let refused = #expect(throws: PostgresError.self) {
                try fixture.pool.asCaller(other) { connection in
                    try connection.execute("""
                        INSERT INTO answers (id, session_id, user_id, question_id, question_version, response, correct, score, rating, time_ms, answered_at)
                        VALUES (\(UUID()), \(fixture.sessionID), \(claimed), \(item.id), 1, '[1]', true, 1, 3, 1000, now())
                        """)
                }
            }
            // Not "the session has ended": whose it is, and what state it is in, stay unsaid.
            #expect(refused?.isInsufficientPrivilege == true, "\(String(describing: refused))")
        }
        #expect(try fixture.database.superuserConnection().query("SELECT count(*) AS n FROM answers").single().decode("n", as: Int.self) == 1)
    }
}
