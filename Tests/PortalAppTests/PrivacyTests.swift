import ExamData
import Foundation
import HTTPServer
import OfflineBundle
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// What leaves the server for whom: return paths that cannot become headers or other sites,
/// personal pages no cache keeps, shared pages with nobody's token, metrics for monitoring
/// only, and questions kept for exams out of everything a student can look up.
@Suite("Privacy and redirects", .onTestThreads)
struct PrivacyTests {
    @Test("a return path with CR, LF, a tab or a second slash leads to the dashboard instead of into a header", arguments: [
        "/x\r\nSet-Cookie: injected=1", "/x\r\n\r\n<script>", "/\t/evil.example", "//evil.example", "/\\evil.example", "/x%0d%0aSet-Cookie:%20a=1%zz",
    ])
    func returnPaths(_ next: String) throws {
        let site = try PortalSite()
        let browser = site.browser()
        try browser.register("traveller", password: "the right password")
        try browser.request("POST", "/logout", form: ["csrf_token": browser.csrfToken(from: try browser.request("GET", "/me/settings"))])
        let page = try browser.request("GET", "/login?next=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        #expect(page.bodyText.contains("name=\"next\" value=\"/me\""))
        let token = browser.csrfToken(from: page)
        let response = try browser.request("POST", "/login", form: ["csrf_token": token, "username": "traveller", "password": "the right password", "next": next])
        #expect(response.status == 303)
        #expect(response.header("Location") == "/me")
        #expect(!response.headers.contains { $0.0.lowercased() == "set-cookie" && $0.1.contains("injected") })
    }

    @Test("every page for a signed-in reader is private and varies by cookie; the shared pages carry no visitor's token")
    func personalPagesArePrivate() throws {
        let site = try PortalSite()
        let student = site.browser()
        try student.register("reader")
        for path in ["/", MiniExam.path, MiniExam.path + "/leaderboard", "/me", "/me/settings", "/api/me"] {
            let response = try student.request("GET", path)
            #expect(response.status == 200, "\(path)")
            #expect(response.header("Cache-Control") == "private, no-store", "\(path)")
            #expect(response.header("Vary")?.contains("Cookie") == true, "\(path)")
        }
        // Two visitors with their own CSRF cookies get the same cached exam page, with neither token in it.
        let first = site.browser(), second = site.browser()
        first.cookies["portal_csrf"] = String(repeating: "A", count: 43)
        second.cookies["portal_csrf"] = String(repeating: "B", count: 43)
        let one = try first.request("GET", MiniExam.path), two = try second.request("GET", MiniExam.path)
        #expect(one.body == two.body)
        #expect(!one.bodyText.contains(String(repeating: "A", count: 43)) && !two.bodyText.contains(String(repeating: "B", count: 43)))
        #expect(one.header("Set-Cookie") == nil)
    }

    @Test("metrics are for monitoring: a bearer token or an allowed address, never a forwarded visitor")
    func metrics() throws {
        let token = "monitoring-token-0123456789"
        let site = try PortalSite(environment: ["METRICS_TOKEN": token, "TRUSTED_PROXIES": "127.0.0.1"])
        #expect(try site.browser().request("GET", "/metrics").status == 200, "loopback is allowed by default")
        #expect(try site.browser().request("GET", "/metrics", extraHeaders: "X-Forwarded-For: 203.0.113.5\r\n").status == 403, "a visitor through the proxy is not")
        #expect(try site.browser().request("GET", "/metrics", extraHeaders: "X-Forwarded-For: 203.0.113.5\r\nAuthorization: Bearer \(token)\r\n").status == 200)
        let closed = try PortalSite(environment: ["METRICS_ALLOW": ""])
        #expect(try closed.browser().request("GET", "/metrics").status == 403)
    }

    @Test("an exam-only question is never in a bundle, a change feed or a practice session; a mock exam may draw it")
    func examOnlyQuestions() throws {
        let site = try PortalSite()
        let kept = MiniExam.items[6]
        let owner = try site.database.adminConnection()
        try owner.execute("UPDATE questions SET updated_at = now() - interval '1 hour'")
        let reader = site.browser()
        try reader.register("reader")
        let before = try OfflineBundles.manifest(site).version
        try owner.execute("UPDATE questions SET exam_only = true WHERE id = \(kept.id)")
        let item = try OfflineBundles.manifest(site)
        let bundle = try JSONDecoder().decode(ExamBundle.self, from: Data(try reader.request("GET", item.url).body))
        #expect(bundle.questions.count == MiniExam.items.count - 1 && !bundle.questions.contains { $0.id == kept.id })
        let feed = try JSONDecoder().decode(ChangeFeed.self, from: Data(try reader.request(
            "GET", "/api/exams/\(MiniExam.region)/\(MiniExam.exam)/changes?since=\(before)").body))
        #expect(feed.deleted == [kept.id], "a device that had it drops it")
        for _ in 0..<3 {
            let (_, path) = try startSession(reader, count: "7")
            let session = try #require(UUID(uuidString: String(path.split(separator: "/").last ?? "")))
            #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE id = \(session) AND \(kept.id) = ANY (question_ids)") == 0)
        }
        // The database holds to it too: a practice session naming it is refused.
        let account = try site.database.makeAccount("direct")
        let refused = #expect(throws: PostgresError.self) {
            try site.pool.asCaller(account) { connection in
                try StudyStore().create(NewStudySession(
                    userID: account.id, examID: try connection.query("SELECT id FROM exams WHERE slug = \(MiniExam.exam)").single().decode("id", as: Int.self),
                    mode: .practice, config: [:], questionIDs: [kept.id], startedAt: site.clock.read()), connection)
            }
        }
        #expect(refused?.isCheckViolation == true)
        let mock = try site.pool.asCaller(account) { connection in
            try StudyStore().create(NewStudySession(
                userID: account.id, examID: try connection.query("SELECT id FROM exams WHERE slug = \(MiniExam.exam)").single().decode("id", as: Int.self),
                mode: .mock, config: [:], questionIDs: [kept.id], startedAt: site.clock.read()), connection)
        }
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE id = \(mock)") == 1)
    }
}
