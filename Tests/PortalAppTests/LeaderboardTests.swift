import ExamData
import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Synchronization
import Testing

/// The study leaderboard: a read model refreshed from history, checked against the history.
@Suite("Leaderboards", .onTestThreads)
struct LeaderboardTests {
    /// A student created straight in the database with a known session cookie and CSRF token,
    /// so hundreds can be made without hundreds of password hashes.
    struct Student {
        var name: String
        var token: String
        var csrf: String
        var visible: Bool

        func browser(port: Int) -> Browser {
            let browser = Browser(port: port)
            browser.cookies["portal_session"] = token
            return browser
        }
    }

    static func makeStudents(_ count: Int, visible: (Int) -> Bool, in database: TestDatabase) throws -> [Student] {
        let owner = try database.adminConnection()
        try owner.execute("SET ROLE portal_auth")
        return try (0..<count).map { index in
            let name = String(format: "Student %03d", index)
            let account = try database.makeAccount("student\(index)", displayName: name, csrf: "csrf-\(index)")
            try owner.execute("UPDATE users SET show_on_leaderboard = \(visible(index)) WHERE id = \(account.id)")
            return Student(name: name, token: account.token, csrf: "csrf-\(index)", visible: visible(index))
        }
    }

    /// Starts a practice session of `count` questions and answers each, right with `rightness`.
    static func study(_ student: Student, port: Int, count: Int, rightness: Double) throws {
        let browser = student.browser(port: port)
        let started = try browser.request("POST", "/sessions", pairs: [
            ("csrf_token", student.csrf), ("region", MiniExam.region), ("exam", MiniExam.exam), ("mode", "practice"),
            ("count", String(count)), ("domain", "alpha"), ("domain", "beta"),
        ])
        guard started.status == 303, let location = started.header("Location") else { throw TestEnvironmentError("start answered \(started.status)") }
        let path = location.replacingOccurrences(of: "http://127.0.0.1:\(port)", with: "")
        for _ in 0..<count {
            let form = try QuestionForm(try browser.request("GET", path))
            let right = Double.random(in: 0..<1) < rightness
            let answered = try browser.request("POST", path + "/answers", pairs: form.pairs(right ? form.item.key : form.item.wrong))
            guard answered.status == 303 else { throw TestEnvironmentError("answer answered \(answered.status)") }
        }
        let finished = try browser.request("POST", path + "/finish", form: ["csrf_token": student.csrf])
        guard finished.status == 303 else { throw TestEnvironmentError("finish answered \(finished.status)") }
    }

    @Test("after 200 students finish sessions at once, a refresh gives exactly the points their answers earn, and only for those who chose to appear")
    func boardEqualsHistory() throws {
        let site = try PortalSite()
        let students = try Self.makeStudents(200, visible: { $0 % 10 != 0 }, in: site.database)
        let port = site.server.port
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: students.count) { index in
            do {
                // Some study twice today: the same question right twice in a day scores once.
                try Self.study(students[index], port: port, count: 4, rightness: 0.7)
                if index % 3 == 0 { try Self.study(students[index], port: port, count: 4, rightness: 0.7) }
            } catch {
                failures.add("\(students[index].name): \(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        #expect(try site.pool.withTransaction { try LeaderboardStore().refresh(every: 0, instance: "test", $0) })
        // The same points computed here from the raw rows: final answer per question per
        // session, a question at most once per student per day, 10 points per difficulty.
        let rows = try site.admin { connection in
            try connection.query("""
                SELECT u.display_name, a.session_id, a.question_id, a.correct, a.answered_at, a.received_at, a.id,
                       (a.answered_at AT TIME ZONE 'UTC')::date::text AS day
                FROM answers a JOIN study_sessions s ON s.id = a.session_id JOIN users u ON u.id = a.user_id
                WHERE s.finished_at IS NOT NULL AND u.show_on_leaderboard
                """).rows
        }
        var finals: [String: (name: String, question: UUID, correct: Bool, day: String, at: Date, id: UUID)] = [:]
        for row in rows {
            let session = try row.decode("session_id", as: UUID.self), question = try row.decode("question_id", as: UUID.self)
            let candidate = (try row.decode("display_name", as: String.self), question, try row.decode("correct", as: Bool.self),
                             try row.decode("day", as: String.self), try row.decode("answered_at", as: Date.self), try row.decode("id", as: UUID.self))
            let key = "\(session)|\(question)"
            if let current = finals[key], current.at >= candidate.4 { continue }
            finals[key] = candidate
        }
        var scored: [String: Set<String>] = [:]
        var expected: [String: Int] = [:]
        for answer in finals.values {
            expected[answer.name, default: 0] += 0
            guard answer.correct, scored[answer.name, default: []].insert("\(answer.question)|\(answer.day)").inserted else { continue }
            expected[answer.name, default: 0] += 10 * MiniExam.item(answer.question)!.difficulty
        }
        let examID = try site.admin { try $0.query("SELECT id FROM exams WHERE slug = \(MiniExam.exam)").first!.decode("id", as: Int.self) }
        let board = try site.pool.withConnection { connection in
            try (0..<10).flatMap { page in try LeaderboardStore().page(examID: examID, period: .all, offset: page * 25, limit: 25, connection) }
        }
        #expect(board.count == 180)
        #expect(Dictionary(uniqueKeysWithValues: board.map { ($0.displayName, $0.points) }) == expected)
        #expect(board.map(\.place) == Array(1...180))
        #expect(zip(board, board.dropFirst()).allSatisfy { $0.points >= $1.points && ($0.points == $1.points) == ($0.rank == $1.rank) })
        #expect(!board.contains { $0.displayName == "Student 000" }, "a student who did not opt in never appears")
        let week = try site.pool.withConnection { try LeaderboardStore().size(examID: examID, period: .week, $0) }
        #expect(week == 180)
        // A student far from the top sees their own place and neighbours on page 1.
        let last = try #require(board.last)
        let lastStudent = try #require(students.first { $0.name == last.displayName })
        let page = try lastStudent.browser(port: port).request("GET", MiniExam.path + "/leaderboard?window=all").bodyText
        #expect(page.contains("You are number \(last.rank)."))
        #expect(page.contains("<tr class=\"viewer\">"))
        #expect(page.contains("Student 000") == false)
    }

    @Test("a refresh under way blocks no reader")
    func refreshBlocksNoReader() throws {
        let site = try PortalSite()
        let students = try Self.makeStudents(3, visible: { _ in true }, in: site.database)
        for student in students { try Self.study(student, port: site.server.port, count: 2, rightness: 1) }
        // Hold a refresh open in a transaction of its own; readers must still be answered.
        let holder = try site.database.appConnection()
        try holder.execute("BEGIN")
        #expect(try LeaderboardStore().refresh(every: 0, instance: "holder", holder))
        let port = site.server.port
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            let reader = students[index % 3].browser(port: port)
            let status = (try? reader.request("GET", MiniExam.path + "/leaderboard?window=all").status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: 200, count: 20))
        // A second refresh meanwhile is skipped rather than queued behind the first.
        #expect(try site.pool.withTransaction { try LeaderboardStore().refresh(every: 0, instance: "second", $0) } == false)
        try holder.execute("COMMIT")
    }

    @Test("two server instances against one database refresh once per interval between them")
    func oneRefreshPerInterval() throws {
        let database = try TestDatabase(migrated: true)
        func instance() throws -> PortalApplication {
            var configuration = PortalConfiguration()
            configuration.databaseURL = database.appURL
            configuration.templatesDirectory = TestPaths.repository + "/Templates"
            configuration.leaderboardRefresh = 1
            return try PortalApplication(configuration: configuration, databaseOverrides: ["dbname": database.name])
        }
        let first = try instance(), second = try instance()
        first.startBackgroundJobs()
        second.startBackgroundJobs()
        Thread.sleep(forTimeInterval: 3.5)
        first.stopBackgroundJobs()
        second.stopBackgroundJobs()
        Thread.sleep(forTimeInterval: 0.3)
        let owner = try database.adminConnection()
        let times = try owner.query("SELECT refreshed_at, instance FROM leaderboard_refreshes ORDER BY refreshed_at").rows.map {
            (try $0.decode("refreshed_at", as: Date.self), try $0.decode("instance", as: String.self))
        }
        #expect((2...4).contains(times.count), "\(times.count) refreshes in 3.5 s at one per second")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1.0.timeIntervalSince($0.0) >= 1 }, "never two refreshes within one interval")
        first.database?.shutdown()
        second.database?.shutdown()
    }

    @Test("the leaderboard page refuses bad periods and pages, and says so", arguments: [
        ("window=month", 400, "is not a leaderboard period"), ("page=0", 400, "whole number"), ("page=two", 400, "whole number"),
        ("page=9", 200, "past the end"), ("window=all", 200, "Nobody is on this leaderboard yet"),
    ])
    func badQueries(_ query: String, _ status: Int, _ says: String) throws {
        let site = try PortalSite()
        if query == "page=9" {
            let students = try Self.makeStudents(1, visible: { _ in true }, in: site.database)
            try Self.study(students[0], port: site.server.port, count: 1, rightness: 1)
            _ = try site.pool.withTransaction { try LeaderboardStore().refresh(every: 0, instance: "test", $0) }
        }
        let page = try site.browser().request("GET", MiniExam.path + "/leaderboard?" + query)
        #expect(page.status == status)
        #expect(page.bodyText.contains(says))
        #expect(try site.browser().request("GET", "/exams/\(MiniExam.region)/nothing/leaderboard").status == 404)
    }

    @Test("the app role cannot read the leaderboard's view, only its public columns through the functions")
    func narrowAccess() throws {
        let site = try PortalSite()
        #expect { try site.pool.withConnection { try $0.query("SELECT user_id FROM leaderboard_entries") } } throws: {
            ($0 as? PostgresError)?.isInsufficientPrivilege == true
        }
        #expect { try site.pool.withConnection { try $0.execute("REFRESH MATERIALIZED VIEW leaderboard_entries") } } throws: { $0 is PostgresError }
    }

    @Test("the leaderboard pages pass the Nu Html Checker")
    func validHTML() throws {
        let site = try PortalSite()
        let students = try Self.makeStudents(30, visible: { $0 != 1 }, in: site.database)
        for student in students { try Self.study(student, port: site.server.port, count: 2, rightness: 0.6) }
        _ = try site.pool.withTransaction { try LeaderboardStore().refresh(every: 0, instance: "test", $0) }
        var saved: [(name: String, body: [UInt8])] = []
        let pages: [(String, Browser, String)] = [
            ("visitor-week", site.browser(), "?window=week"), ("visitor-all-2", site.browser(), "?window=all&page=2"),
            ("student", students[29].browser(port: site.server.port), "?window=all"),
            ("hidden", students[1].browser(port: site.server.port), ""), ("beyond", site.browser(), "?page=7"),
        ]
        for (name, browser, query) in pages {
            let response = try browser.request("GET", MiniExam.path + "/leaderboard" + query)
            #expect(response.status == 200, "\(name)")
            saved.append((name, response.body))
        }
        #expect(try students[1].browser(port: site.server.port).request("GET", MiniExam.path + "/leaderboard").bodyText.contains("You are not shown on leaderboards."))
        let check = try HTMLChecker.passes(saved)
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }
}

/// Failures collected from many threads.
final class FailureLog: Sendable {
    private let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}
