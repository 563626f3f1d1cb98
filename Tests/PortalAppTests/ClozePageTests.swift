import ExamData
import Foundation
import Interop
import PortalApp
import PortalTestSupport
import QuestionEngine
import TestSupport
import Testing

/// A cloze question answered through the pages a student uses, without JavaScript: each gap's
/// field where the text marks it, the answer checked by the server gap by gap, the review.
@Suite("Cloze questions over HTTP", .onTestThreads)
struct ClozePageTests {
    static let region = "cloze", exam = "gaps"

    static func install(_ site: PortalSite) throws {
        let document = """
            {"format": 1, "regions": [{"code": "\(region)", "name": "Cloze", "exams": [{"slug": "\(exam)", "title": "Gaps", "language": "en",
             "passMark": 60, "timeLimitSeconds": 600, "questionCount": 1, "domains": [{"slug": "history", "title": "History", "weight": 100, "questions": [
              {"key": "c/revolution", "type": "cloze", "stem": "The capital is {#1}.\\nIn {#2} the people took the {#3}.", "difficulty": 2,
               "explanation": "Paris, 1789, the Bastille.", "options": [],
               "gaps": [{"choices": ["Paris", "Lyon", "Nice"], "accepted": ["Paris"]},
                        {"accepted": ["1789"], "match": "numeric", "weight": 2},
                        {"accepted": ["Bastille"], "match": "case-insensitive", "partial": [{"answer": "prison", "share": 0.5}]}]}]}]}]}]}
            """
        let parsed = try ContentDocument.decode(Data(document.utf8))
        #expect(ContentImport().problems(parsed).isEmpty, "\(ContentImport().problems(parsed))")
        _ = try site.admin { try ContentImport().apply(parsed, $0) }
    }

    @Test("practice: a list and boxes stand in the text; blank gaps alone are refused; an answer partly right says its share and reviews each gap")
    func practice() throws {
        let site = try PortalSite()
        try Self.install(site)
        let browser = site.browser()
        try browser.register("ana")
        let token = browser.csrfToken(from: try browser.request("GET", "/exams/\(Self.region)/\(Self.exam)"))
        let started = try browser.request("POST", "/sessions", pairs: [
            ("csrf_token", token), ("region", Self.region), ("exam", Self.exam), ("mode", "practice"), ("count", "1"), ("domain", "history"),
        ])
        let path = started.header("Location")?.replacingOccurrences(of: "http://127.0.0.1:\(browser.port)", with: "") ?? ""
        let page = try browser.request("GET", path + "?q=1")
        let html = page.bodyText
        #expect(html.contains("<legend id=\"gaps-legend\">Fill in each gap</legend>"))
        #expect(html.contains("The capital is <span class=\"gap\"><span class=\"gap-number\" id=\"gap-1-number\">1</span><select id=\"gap-1\" name=\"gap_1\" aria-labelledby=\"gaps-legend gap-1-number\"><option value=\"\">…</option><option value=\"Paris\">Paris</option>"), "\(html)")
        #expect(html.contains("<input type=\"text\" id=\"gap-2\" name=\"gap_2\""))
        #expect(!html.contains("{#"), "no mark is shown as written")
        func field(_ name: String) throws -> String {
            let range = try #require(html.range(of: "name=\"\(name)\" value=\""))
            return String(html[range.upperBound...].prefix { $0 != "\"" })
        }
        let base = try ["csrf_token", "answer_id", "question", "shown_at"].map { ($0, try field($0)) }
        // Nothing filled in is no answer: sent back with the reason.
        let blank = try browser.request("POST", path + "/answers", pairs: base + [("gap_1", ""), ("gap_2", " "), ("gap_3", "")])
        #expect(blank.status == 303)
        let refused = try browser.request("GET", try #require(blank.header("Location")).replacingOccurrences(of: "http://127.0.0.1:\(browser.port)", with: ""))
        #expect(refused.bodyText.contains("Type an answer"), "\(refused.bodyText)")
        // A choice that is not one of the gap's is no answer either.
        let forged = try browser.request("POST", path + "/answers", pairs: base + [("gap_1", "Marseille"), ("gap_2", "1789"), ("gap_3", "Bastille")])
        #expect(forged.status == 422 || forged.status == 303)
        #expect(try site.admin { try $0.query("SELECT count(*)::int AS n FROM answers").single().decode("n", as: Int.self) } == 0)
        // Paris (1 mark), 1790 (0 of 2), prison (half of 1): 1.5 of 4.
        let answered = try browser.request("POST", path + "/answers", pairs: base + [("gap_1", "Paris"), ("gap_2", "1790"), ("gap_3", "Prison")])
        #expect(answered.status == 303)
        let review = try browser.request("GET", path + "?q=1").bodyText
        #expect(review.contains("<section class=\"feedback wrong\""))
        #expect(review.contains("(38% of it)"), "\(review)")
        #expect(review.contains("<span class=\"gap-mark\"><span class=\"gap-number\">1</span></span>"), "once answered, the text shows its gaps as numbered blanks")
        #expect(review.contains("<li class=\"key\"><span class=\"gap-number\">1</span> <span class=\"given\">Paris</span> <strong class=\"tag\">right</strong>"))
        #expect(review.contains("<span class=\"given\">1790</span> <span class=\"tag\">your answer</span> · Accepted answers: <strong class=\"accepted\">1789</strong>"), "\(review)")
        #expect(review.contains("<span class=\"partial\">prison (50%)</span>"))
        let stored = try site.admin { try $0.query("SELECT response::text AS response, correct, score FROM answers").single() }
        #expect(try stored.decode("response", as: String.self) == #"{"gaps": ["Paris", "1790", "Prison"]}"#)
        #expect(try stored.decode("correct", as: Bool.self) == false && abs(stored.decode("score", as: Double.self) - 0.375) < 1e-9)
        let check = try HTMLChecker.passes([("cloze form", Array(html.utf8)), ("cloze reviewed", Array(review.utf8))])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("item statistics break a cloze question down gap by gap: how often each was right and what was given instead")
    func statistics() throws {
        let site = try PortalSite()
        try Self.install(site)
        let (admin, _) = try site.signedInAdmin()
        let (examID, questionID) = try site.admin { connection in
            (try connection.query("SELECT id FROM exams WHERE slug = \(Self.exam)").first!.decode("id", as: Int.self),
             try connection.query("SELECT id FROM questions WHERE source_key = 'c/revolution'").first!.decode("id", as: UUID.self))
        }
        // Four first attempts: the list right 3 times, the year right once (1790 twice), the building twice.
        let given = [["Paris", "1789", "Bastille"], ["Paris", "1790", "bastille"], ["Lyon", "1790", "prison"], ["Paris", "1800", ""]]
        let start = site.clock.read()
        for (index, gaps) in given.enumerated() {
            let student = try site.database.makeAccount("taker\(index)")
            try site.pool.asCaller(student) { connection in
                let store = StudyStore()
                let session = try store.create(NewStudySession(
                    userID: student.id, examID: examID, mode: .mock, config: [:], questionIDs: [questionID], startedAt: start), connection)
                _ = try AnswerRecorder().record(RecordedAnswer(
                    id: UUID(), sessionID: session, questionID: questionID, questionVersion: 1, response: .gaps(gaps), correct: false, score: 0,
                    rating: nil, milliseconds: 5000, answeredAt: start.addingTimeInterval(10)), userID: student.id, connection)
                _ = try store.finish(sessionID: session, at: start.addingTimeInterval(30), connection)
            }
        }
        let reader = try site.database.makeAccount("statistician", role: "admin")
        let statistics = try #require(try site.pool.asCaller(reader) { try AdminStore().itemStatistics(questionIDs: [questionID], $0) }[questionID])
        #expect(statistics.attempts == 4 && abs(statistics.facility - 0.25) < 1e-9, "only the first student filled every gap right")
        #expect(statistics.gaps.map(\.facility) == [0.75, 0.25, 0.5])
        #expect(statistics.gaps[1].commonWrong.map(\.answer) == ["1790", "1800"] && statistics.gaps[1].commonWrong.map(\.share) == [0.5, 0.25])
        #expect(statistics.gaps[2].commonWrong.map(\.answer) == ["prison"], "a blank is no answer given instead")
        let page = try admin.request("GET", "/admin/questions/\(questionID.uuidString.lowercased())").bodyText
        #expect(page.contains("<h3>Gap by gap</h3><ul><li>Gap 1: 75% right · often instead: Lyon (25%)</li><li>Gap 2: 25% right · often instead: 1790 (50%), 1800 (25%)</li>"), "\(page)")
    }

    @Test("a live event with a cloze question: the gaps stand in the text, the answer is scored on the database's clock, the reveal reviews each gap")
    func live() throws {
        let site = try PortalSite(live: true)
        try Self.install(site)
        let (code, player, token) = try LiveEvents.started(site, exam: "\(Self.region)/\(Self.exam)", count: 1)
        site.clock.advance(6)
        let page = try player.request("GET", "/live/\(code)").bodyText
        #expect(page.contains("name=\"gap_1\"") && page.contains("name=\"gap_3\"") && !page.contains("{#"), "\(page)")
        let sent = try player.request("POST", "/live/\(code)/answers", pairs: [("csrf_token", token), ("index", "0"), ("gap_1", "Paris"), ("gap_2", "1789"), ("gap_3", " BASTILLE ")])
        #expect(sent.status == 303)
        site.clock.advance(10)
        let reveal = try player.request("GET", "/live/\(code)").bodyText
        #expect(reveal.contains("You were right"), "\(reveal)")
        #expect(reveal.contains("<strong class=\"accepted\">1789</strong>"))
        let stored = try site.admin { try $0.query("SELECT response::text AS r, correct FROM live_answers").single() }
        #expect(try stored.decode("r", as: String.self) == #"{"gaps": ["Paris", "1789", " BASTILLE "]}"# && stored.decode("correct", as: Bool.self))
    }
}
