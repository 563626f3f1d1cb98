import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// A mock exam a student can fit in: the whole exam, half of it, or 20 or 10 questions, in the
/// blueprint's proportions, the time given by the database in proportion to the questions; a
/// shorter mock does not count in the questions' statistics.
@Suite("Mock exam lengths", .onTestThreads)
struct MockLengthTests {
    @Test("the exam page offers each length with its time; a 10-question mock gets its share of the time from the database and stays out of the item statistics; another length is refused")
    func lengths() throws {
        let site = try PortalSite(content: .demoCatalogue)
        let exam = "/exams/europe/network-fundamentals"
        let (total, seconds) = try site.admin { connection in
            let row = try connection.query("SELECT question_count, time_limit_s FROM exams WHERE slug = 'network-fundamentals'").single()
            return (try row.decode("question_count", as: Int.self), try row.decode("time_limit_s", as: Int.self))
        }
        try #require(total > 20)
        let student = site.browser()
        try student.register("mona")
        let page = try student.request("GET", exam).bodyText
        #expect(page.contains("<legend>Length of a mock exam</legend>"))
        #expect(page.contains(#"value="full" checked> The whole exam: \#(total) questions in \#(seconds / 60) minutes"#))
        let tenMinutes = (seconds * 10 + total - 1) / total
        #expect(page.contains(#"value="10"> 10 questions in \#((tenMinutes + 59) / 60) minutes"#), "\(page)")
        #expect(page.contains(#"value="half">"#) && page.contains(#"value="20">"#))

        func start(_ length: String) throws -> RawHTTPClient.Response {
            try student.request("POST", "/sessions", pairs: [
                ("csrf_token", student.csrfToken(from: try student.request("GET", exam))), ("region", "europe"), ("exam", "network-fundamentals"),
                ("mode", "mock"), ("mock_length", length),
            ])
        }
        let refused = try start("7")
        #expect(refused.status == 400 && refused.bodyText.contains("A mock exam is the whole exam, half of it, 20 or 10 questions."))
        let started = try start("10")
        #expect(started.status == 303)
        let session = try site.admin { connection in
            try connection.query("""
                SELECT cardinality(question_ids) AS n, extract(epoch FROM deadline_at - started_at)::int AS limit_s, config->>'length' AS length
                FROM study_sessions WHERE mode = 'mock'
                """).single()
        }
        #expect(try session.decode("n", as: Int.self) == 10)
        #expect(try session.decode("limit_s", as: Int.self) == tenMinutes, "the database gave it its share of the exam's time")
        #expect(try session.decode("length", as: String.self) == "short")
        // Finished, it stays out of the questions' statistics.
        let path = redirectLocation(started)
        let token = student.csrfToken(from: try student.request("GET", path + "/finish"))
        #expect(try student.request("POST", path + "/finish", form: ["csrf_token": token]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM item_responses") == 0)
    }
}
