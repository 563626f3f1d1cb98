import Foundation
import HTTPServer
import PortalApp
import PortalTestSupport
import TestSupport
import Testing

/// What the server gives the offline study app: its page, its service worker, who is signed in
/// and the review schedule. (The app itself runs in Chromium: Tests/browser.)
@Suite("Offline study: the shell and the device API", .onTestThreads)
struct OfflineStudyPageTests {
    @Test("the offline study page is one shell for everyone — no account links, revalidated, valid HTML — and the exam page offers the download")
    func shell() throws {
        let site = try PortalSite()
        let (student, _, _) = try site.account("nomad", role: "student", displayName: "Nomad Nina")
        let signedIn = try student.request("GET", "/offline/study")
        let visitor = try site.browser().request("GET", "/offline/study")
        #expect(signedIn.status == 200 && signedIn.header("Cache-Control") == "no-cache")
        // The service worker caches this page; nothing in it may belong to one reader.
        #expect(signedIn.body == visitor.body)
        #expect(!signedIn.bodyText.contains("Nomad Nina") && !signedIn.bodyText.contains("logout-form") && !signedIn.bodyText.contains("csrf"))
        for part in ["id=\"offline-app\"", "/js/offline-study.js", "/js/answer-check.js", "/js/offline.js", "<noscript>"] {
            #expect(signedIn.bodyText.contains(part), "the offline page lacks \(part)")
        }
        let exam = try student.request("GET", "/exams/\(MiniExam.region)/\(MiniExam.exam)")
        #expect(exam.bodyText.contains("id=\"offline-section\""))
        #expect(exam.bodyText.contains("data-region=\"\(MiniExam.region)\" data-exam=\"\(MiniExam.exam)\""))
        #expect(exam.bodyText.contains("Download for offline"))
        #expect(exam.bodyText.contains("id=\"logout-form\" data-pending=\""))
        let check = try HTMLChecker.passes([("offline-study", signedIn.body), ("exam-signed-in", exam.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    /// Serves `public` (no database) and returns the version `sw.js` was stamped with.
    static func workerVersion(public folder: String) throws -> String {
        var configuration = PortalConfiguration()
        configuration.server.port = 0
        configuration.server.accessLog = false
        configuration.publicDirectory = folder
        configuration.templatesDirectory = TestPaths.repository + "/Templates"
        let server = try PortalApplication(configuration: configuration).makeServer()
        try server.start()
        defer { server.shutdown() }
        let response = try Browser(port: server.port).request("GET", "/sw.js")
        #expect(response.status == 200 && response.header("Cache-Control") == "no-cache")
        #expect(response.header("Content-Type")?.hasPrefix("text/javascript") == true)
        #expect(!response.bodyText.contains("__SHELL_VERSION__"))
        let marker = "var VERSION = \""
        let start = try #require(response.bodyText.range(of: marker)).upperBound
        return String(response.bodyText[start...].prefix { $0 != "\"" })
    }

    @Test("sw.js carries a version stamped from the shell's files: the same shell gives the same version, a changed script a new one")
    func workerVersion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("public-" + UUID().uuidString).path
        try FileManager.default.copyItem(atPath: TestPaths.repository + "/Public", toPath: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try Self.workerVersion(public: folder)
        #expect(first.count == 16 && first.allSatisfy(\.isHexDigit))
        #expect(try Self.workerVersion(public: folder) == first)
        let script = folder + "/js/offline.js"
        try (String(contentsOfFile: script, encoding: .utf8) + "\n// changed\n").write(toFile: script, atomically: true, encoding: .utf8)
        let second = try Self.workerVersion(public: folder)
        #expect(second != first)
        // Every file of the worker's own list counts, the last one added too.
        let ordering = folder + "/js/ordering.js"
        try (String(contentsOfFile: ordering, encoding: .utf8) + "\n// changed\n").write(toFile: ordering, atomically: true, encoding: .utf8)
        #expect(try Self.workerVersion(public: folder) != second)
    }

    struct Me: Decodable {
        var signedIn: Bool
        var userId: String?
        var displayName: String?
        var csrfToken: String
    }

    @Test("/api/me tells the scripts who is signed in, with a current CSRF token, and is never cached")
    func me() throws {
        let site = try PortalSite()
        let visitor = try site.browser().request("GET", "/api/me")
        #expect(visitor.status == 200 && visitor.header("Cache-Control") == "private, no-store")
        let anonymous = try JSONDecoder().decode(Me.self, from: Data(visitor.body))
        #expect(!anonymous.signedIn && anonymous.userId == nil && !anonymous.csrfToken.isEmpty)
        let (student, id, csrf) = try site.account("nomad", role: "student", displayName: "Nomad Nina")
        let me = try JSONDecoder().decode(Me.self, from: Data(try student.request("GET", "/api/me").body))
        #expect(me.signedIn && me.userId == id.uuidString.lowercased() && me.displayName == "Nomad Nina" && me.csrfToken == csrf)
    }

    struct Schedule: Decodable {
        struct Card: Decodable { var question: String; var due: Date }
        var cards: [Card]
    }

    static func schedule(_ browser: Browser, exam: String = MiniExam.exam) throws -> (status: Int, cards: [Schedule.Card]) {
        let response = try browser.request("GET", "/api/exams/\(MiniExam.region)/\(exam)/schedule")
        guard response.status == 200 else { return (response.status, []) }
        #expect(response.header("Cache-Control") == "private, no-store")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (200, try decoder.decode(Schedule.self, from: Data(response.body)).cards)
    }

    @Test("the review schedule holds the student's own cards with their due dates; a visitor must sign in; an offline review session is stored as one")
    func schedule() throws {
        let site = try PortalSite()
        let (student, _, csrf) = try site.account("nomad", role: "student")
        let (other, _, _) = try site.account("homebody", role: "student")
        #expect(try Self.schedule(student).cards.isEmpty)
        let answers = MiniExam.items.prefix(3).map { (UUID(), $0, $0.key) }
        let session = UUID()
        let reply = try ProgressUpload.post(student, csrf: csrf, ProgressUpload.body(
            session: session, answers: Array(answers), finished: true, questionIDs: answers.map(\.1.id), mode: "review"))
        #expect(reply.status == 200)
        let cards = try Self.schedule(student).cards
        #expect(Set(cards.map(\.question)) == Set(answers.map { $0.1.id.uuidString.lowercased() }))
        #expect(cards.allSatisfy { $0.due > Date().addingTimeInterval(-3600) })
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE mode = 'review' AND id = \(session)") == 1)
        // Row-level security: another student's schedule has none of these cards.
        #expect(try Self.schedule(other).cards.isEmpty)
        #expect(try Self.schedule(site.browser()).status == 401)
        #expect(try Self.schedule(student, exam: "no-such-exam").status == 404)
        // A mode a device cannot have run offline is refused with the session's answers.
        let mock = UUID()
        let refused = try JSONDecoder().decode(ProgressUpload.Outcome.self, from: Data(try ProgressUpload.post(student, csrf: csrf, ProgressUpload.body(
            session: mock, answers: [(UUID(), MiniExam.items[4], MiniExam.items[4].key)], finished: false, mode: "mock")).body))
        #expect(refused.accepted.isEmpty && refused.rejected.count == 1)
        #expect(try site.count("SELECT count(*) AS n FROM study_sessions WHERE id = \(mock)") == 0)
    }
}
