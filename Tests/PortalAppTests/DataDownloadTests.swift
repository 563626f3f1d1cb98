import ContentPackage
import ExamData
import Foundation
import PortalApp
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

/// A student's data is theirs to take: `/me/data.zip` holds everything kept about them and
/// nothing about anyone else.
@Suite("Download my data", .onTestThreads)
struct DataDownloadTests {
    static func files(_ response: RawHTTPClient.Response) throws -> [String: String] {
        let entries = try Zip.entries(response.body)
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.path, String(decoding: $0.bytes, as: UTF8.self)) })
    }

    @Test("a student downloads a zip of their account, sessions, every answer with its question's text as answered, cards, classes and the audit entries about them — as JSON, answers and sessions as CSV too — and none of a classmate's, even when a teacher downloads theirs")
    func ownDataOnly() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher", displayName: "Ms Rossi")
        let (_, joinCode) = try makeClass(teacher, csrf: csrf)
        let (ada, adaID) = try ClassPupils.pupil(site, in: joinCode, name: "ada")
        let (bea, _) = try ClassPupils.pupil(site, in: joinCode, name: "bea")
        for browser in [ada, bea] {
            let (_, path) = try startSession(browser, count: "3")
            while case let page = try browser.request("GET", path), page.status == 200 {
                let form = try QuestionForm(page)
                try browser.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
            }
        }
        // A question changed after Ada answered it: her export has the text she saw.
        let answered = try site.admin { try $0.query("SELECT question_id FROM answers WHERE user_id = \(adaID) LIMIT 1").single().decode("question_id", as: UUID.self) }
        let before = try site.admin { try $0.query("SELECT stem FROM questions WHERE id = \(answered)").single().decode("stem", as: String.self) }
        try site.admin { try $0.execute("UPDATE questions SET stem = 'A reworded stem', version = version + 1 WHERE id = \(answered)") }

        let settings = try ada.request("GET", "/me/settings").bodyText
        #expect(settings.contains(#"<a class="button" href="/me/data.zip" download>Download my data (zip)</a>"#))
        let download = try ada.request("GET", "/me/data.zip")
        #expect(download.status == 200 && download.header("Content-Type") == "application/zip")
        #expect(download.header("Content-Disposition")?.hasPrefix("attachment; filename=\"study-portal-") == true)
        #expect(download.header("Cache-Control") == "private, no-store")
        let files = try Self.files(download)
        for name in ["README.txt", "account.json", "sign-ins.json", "study-sessions.json", "study-sessions.csv", "answers.json", "answers.csv",
                     "review-cards.json", "fitted-weights.json", "exam-dates.json", "classes.json", "extra-time.json", "live-events.json",
                     "question-reports.json", "school-sign-ins.json", "audit-log.json"] {
            #expect(files[name] != nil, "\(name) is in the archive")
        }
        #expect(files["account.json"]?.contains(#""username": "ada""#) == true || files["account.json"]?.contains(#""username":"ada""#) == true)
        let answers = try JSONSerialization.jsonObject(with: Data((files["answers.json"] ?? "").utf8)) as? [[String: Any]] ?? []
        #expect(answers.count == 3)
        #expect(answers.contains { ($0["question_text"] as? String) == before }, "the text as answered, not as reworded")
        #expect(!(files["answers.json"] ?? "").contains("A reworded stem"))
        #expect((files["answers.csv"] ?? "").split(separator: "\r\n").count == 4, "a header and three answers")
        #expect((files["study-sessions.csv"] ?? "").split(separator: "\r\n").count == 2)
        #expect(files["classes.json"]?.contains("Year 10 networking") == true)
        #expect(try site.count("SELECT count(*) AS n FROM answers WHERE user_id = \(adaID)") == 3)
        // Nothing of Bea's; and a teacher, who may see both in their class, downloads only their own.
        let beaSessions = try site.admin { try $0.query("SELECT s.id FROM study_sessions s JOIN users u ON u.id = s.user_id WHERE u.username = 'bea'").single().decode("id", as: UUID.self) }
        #expect(!files.values.contains { $0.contains(beaSessions.uuidString.lowercased()) })
        let teachers = try Self.files(try teacher.request("GET", "/me/data.zip"))
        #expect(teachers["answers.json"] == "[]" && teachers["study-sessions.json"] == "[]", "a teacher's export holds no student's answers")
        #expect(teachers["audit-log.json"]?.contains("Ms Rossi") == false || teachers["audit-log.json"] == "[]")
        // Visitors are sent to sign in.
        #expect(redirectLocation(try site.browser().request("GET", "/me/data.zip")).hasPrefix("/login"))
    }

    @Test("the audit log's entries about a student come with their data: a reset code issued for them names who issued it")
    func auditEntries() throws {
        let site = try PortalSite()
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher", displayName: "Ms Rossi")
        let (classID, joinCode) = try makeClass(teacher, csrf: csrf)
        let (ada, adaID) = try ClassPupils.pupil(site, in: joinCode, name: "ada")
        let issued = try teacher.submit("/teach/classes/\(classID)/members/\(adaID.uuidString.lowercased())/reset", to: "/teach/classes/\(classID)/members/\(adaID.uuidString.lowercased())/reset", ["confirm": "1"])
        #expect(issued.status == 200)
        let files = try Self.files(try ada.request("GET", "/me/data.zip"))
        let audit = files["audit-log.json"] ?? ""
        #expect(audit.contains("account.reset-code") && audit.contains("Ms Rossi"), "\(audit)")
        // The database hands over only the caller's entries.
        let other = try site.database.makeAccount("other")
        let seen = try site.pool.asCaller(other) { try $0.query("SELECT count(*) AS n FROM my_audit_entries()").single().decode("n", as: Int.self) }
        #expect(seen == 0)
    }

    @Test("a large history is packed in the background as its student: the page says it is being prepared, the archive is downloadable once, and nobody else sees it")
    func largeHistoryInTheBackground() throws {
        let site = try PortalSite(environment: ["DATA_EXPORT_INLINE_ANSWERS": "1"])
        let (teacher, _, csrf) = try site.account("teacher", role: "teacher")
        let (_, joinCode) = try makeClass(teacher, csrf: csrf)
        let (cleo, cleoID) = try ClassPupils.pupil(site, in: joinCode, name: "cleo")
        let (_, path) = try startSession(cleo, count: "3")
        while case let page = try cleo.request("GET", path), page.status == 200 {
            let form = try QuestionForm(page)
            try cleo.request("POST", path + "/answers", pairs: form.pairs(form.item.key))
        }
        let asked = try cleo.request("GET", "/me/data.zip")
        #expect(asked.status == 202 && asked.bodyText.contains("Your data is being prepared") && asked.header("Retry-After") == "10")
        #expect(asked.bodyText.contains(#"<meta http-equiv="refresh" content="10">"#), "it looks again without JavaScript")
        let check = try HTMLChecker.passes([("preparing", asked.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        let deadline = Date().addingTimeInterval(30)
        while try site.count("SELECT count(*) AS n FROM data_exports WHERE archive IS NOT NULL") == 0 && Date() < deadline { usleep(100_000) }
        #expect(try site.count("SELECT count(*) AS n FROM data_exports WHERE user_id = \(cleoID) AND archive IS NOT NULL") == 1)
        // Nobody else sees it, not even the class's teacher.
        let seen = try site.pool.withTransaction(settings: ["app.session_token": teacher.cookies["portal_session"] ?? ""]) {
            try $0.query("SELECT count(*) AS n FROM data_exports").single().decode("n", as: Int.self)
        }
        #expect(seen == 0)
        let ready = try cleo.request("GET", "/me/data.zip")
        #expect(ready.status == 200 && ready.header("Content-Type") == "application/zip")
        let files = try Self.files(ready)
        #expect(files["answers.csv"]?.split(whereSeparator: \.isNewline).count == 4, "a header and the three answers")
        #expect(try site.count("SELECT count(*) AS n FROM data_exports WHERE archive IS NULL AND downloaded_at IS NOT NULL") == 1, "taken once, then dropped")
        #expect(try cleo.request("GET", "/me/data.zip").status == 202, "another download is another archive")
    }
}
