import ExamData
import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// Progress a client forges: dates, deadlines, second tries and timings claimed by the device
/// or the form, each written as the attack and shown to change nothing that counts.
@Suite("Forged progress", .onTestThreads)
struct ForgedProgressTests {
    /// An offline upload: sessions (id, mode, started) and answers (id, session, item, response, answered at).
    static func upload(
        sessions: [(id: UUID, mode: String, startedAt: Date, finishedAt: Date?)], answers: [(id: UUID, session: UUID, item: MiniExam.Item, response: [Int], at: Date)]
    ) -> String {
        let iso = ISO8601DateFormatter()
        let sessionJSON = sessions.map { session in
            """
            {"id": "\(session.id)", "mode": "\(session.mode)", "region": "\(MiniExam.region)", "exam": "\(MiniExam.exam)",
             "startedAt": "\(iso.string(from: session.startedAt))", "questionIds": [\(MiniExam.items.map { "\"\($0.id)\"" }.joined(separator: ","))]
             \(session.finishedAt.map { ", \"finishedAt\": \"\(iso.string(from: $0))\"" } ?? "")}
            """
        }.joined(separator: ",")
        let answerJSON = answers.map { answer in
            """
            {"id": "\(answer.id)", "sessionId": "\(answer.session)", "questionId": "\(answer.item.id)", "questionVersion": 1,
             "response": [\(answer.response.map(String.init).joined(separator: ","))], "timeMs": 1, "answeredAt": "\(iso.string(from: answer.at))"}
            """
        }.joined(separator: ",")
        return "{\"sessions\": [\(sessionJSON)], \"answers\": [\(answerJSON)]}"
    }

    static func refreshLeaderboard(_ site: PortalSite) throws {
        _ = try site.pool.withConnection { try LeaderboardStore().refresh(every: 0, instance: "test", $0) }
    }

    static func allTimePoints(_ site: PortalSite, _ student: UUID) throws -> Int {
        try site.admin { connection in
            try connection.query("SELECT coalesce(max(points), 0) AS n FROM leaderboard_entries WHERE user_id = \(student) AND period = 'all'")
                .single().decode("n", as: Int.self)
        }
    }

    @Test("one question uploaded as twenty offline sessions dated on twenty past days earns one day's points, not twenty")
    func leaderboardFarming() throws {
        let site = try PortalSite()
        let (student, studentID, csrf) = try site.account("farmer", role: "student")
        try site.database.adminConnection().execute("UPDATE users SET show_on_leaderboard = true WHERE id = \(studentID)")
        let hardest = try #require(MiniExam.items.max { $0.difficulty < $1.difficulty })
        let now = site.clock.read()
        var sessions: [(id: UUID, mode: String, startedAt: Date, finishedAt: Date?)] = []
        var answers: [(id: UUID, session: UUID, item: MiniExam.Item, response: [Int], at: Date)] = []
        for day in 1...20 {
            let at = now.addingTimeInterval(-Double(day) * 86_400)
            let session = UUID()
            sessions.append((session, "practice", at, at.addingTimeInterval(60)))
            answers.append((UUID(), session, hardest, hardest.key, at.addingTimeInterval(30)))
        }
        let outcome = try ProgressUpload.post(student, csrf: csrf, Self.upload(sessions: sessions, answers: answers))
        #expect(outcome.status == 200)
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 20, "the answers are kept as information")
        try Self.refreshLeaderboard(site)
        #expect(try Self.allTimePoints(site, studentID) == 10 * hardest.difficulty, "points count by the day the server received them")
        // The device's dates are kept, but never before the session's start nor after the upload.
        #expect(try site.count("SELECT count(*) AS n FROM answers a JOIN study_sessions s ON s.id = a.session_id WHERE a.answered_at < s.started_at OR a.answered_at > a.received_at") == 0)
    }

    @Test("a mock exam takes no answers through the offline API: answers dated before its deadline and sent after it change nothing")
    func mockDeadlineBypass() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("latecomer")
        let csrf = browser.csrfToken(from: try browser.request("GET", MiniExam.path))
        let (_, path) = try startSession(browser, mode: "mock")
        let session = try #require(UUID(uuidString: String(path.split(separator: "/").last ?? "")))
        let started = site.clock.read()
        site.clock.advance(Double(MiniExam.timeLimitSeconds) + 30)
        let items = try site.admin { connection in
            try connection.query("SELECT unnest(question_ids) AS id FROM study_sessions WHERE id = \(session)").rows.map { try $0.decode("id", as: UUID.self) }
        }.compactMap(MiniExam.item)
        let answers = items.map { (id: UUID(), session: session, item: $0, response: $0.key, at: started.addingTimeInterval(5)) }
        let response = try ProgressUpload.post(browser, csrf: csrf, Self.upload(sessions: [], answers: answers))
        let outcome = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(response.body))
        #expect(outcome.accepted.isEmpty && outcome.rejected.count == items.count)
        #expect(outcome.rejected.allSatisfy { $0.reason.contains("only online") })
        #expect(try browser.request("POST", path + "/finish", form: ["csrf_token": csrf]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM answers") == 0)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE id = \(session) AND score_correct = 0 AND NOT passed") == 1)
    }

    @Test("after a wrong answer online, the right answer uploaded later for the same question is refused: the first answer counts")
    func practiceReanswer() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("secondtry")
        let csrf = browser.csrfToken(from: try browser.request("GET", MiniExam.path))
        let (_, path) = try startSession(browser, count: "1")
        let form = try QuestionForm(try browser.request("GET", path))
        #expect(try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.wrong)).status == 303)
        let session = try #require(UUID(uuidString: String(path.split(separator: "/").last ?? "")))
        let later = site.clock.read().addingTimeInterval(120)
        let response = try ProgressUpload.post(browser, csrf: csrf, Self.upload(
            sessions: [(session, "practice", site.clock.read(), later)], answers: [(UUID(), session, form.item, form.item.key, later)]))
        let outcome = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(response.body))
        #expect(outcome.accepted.isEmpty && outcome.rejected.count == 1)
        #expect(outcome.rejected.first?.reason.contains("answered already") == true)
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE correct") == 0)
        #expect(try browser.request("POST", path + "/finish", form: ["csrf_token": csrf]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE id = \(session) AND score_percent = 0") == 1)
    }

    @Test("the time an answer took is the server's: from the signed moment the question was shown to the answer's arrival")
    func serverMeasuresTime() throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("patient")
        let (_, path) = try startSession(browser, count: "1")
        let form = try QuestionForm(try browser.request("GET", path))
        site.clock.advance(42)
        // A form that also claims to have taken a millisecond: the claim is not read.
        #expect(try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key) + [("time_ms", "1")]).status == 303)
        #expect(try site.count("SELECT time_ms AS n FROM answers") == 42_000)
    }

    @Test("an upload may carry at most fifty sessions")
    func boundedSessions() throws {
        let site = try PortalSite()
        let (student, _, csrf) = try site.account("hoarder", role: "student")
        let now = site.clock.read()
        let sessions = (0..<51).map { _ in (id: UUID(), mode: "practice", startedAt: now, finishedAt: Optional<Date>.none) }
        let response = try ProgressUpload.post(student, csrf: csrf, Self.upload(sessions: sessions, answers: []))
        #expect(response.status == 413 && response.bodyText.contains("At most 50 sessions"))
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions") == 0)
    }
}
