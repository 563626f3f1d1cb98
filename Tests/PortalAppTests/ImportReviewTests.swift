import ExamData
import Foundation
import HTTPServer
import PortalTestSupport
import PostgresClient
import TestSupport
import Testing

@Suite("Imports reviewed before they land", .onTestThreads)
struct ImportReviewTests {
    @Test("an import is first a dry run that stores nothing; imported as drafts, its new questions wait in the question list, unseen by students, until the admin publishes them together, each audited; the check is gone once used")
    func dryRunDraftsPublished() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let into = "\(MiniExam.region)/\(MiniExam.exam)"
        let gift = "// GIFT\n::Ports 1::Which port does SSH use? {=22 ~23 ~25}\n\n::Ports 2::Which port does HTTPS use? {=443 ~80 ~25}\n"
        let sent = try admin.submit("/admin/import", to: "/admin/import", ["csrf_token": csrf, "document": gift, "into": into, "domain": "alpha"])
        #expect(sent.status == 303)
        let checkPath = redirectLocation(sent)
        #expect(checkPath.hasPrefix("/admin/import/"))
        let check = try admin.request("GET", checkPath)
        #expect(check.status == 200 && check.bodyText.contains("What this import would do"))
        #expect(check.bodyText.contains("2 questions added, 0 changed, 0 unchanged"))
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE source_key LIKE 'gift:%'") == 0, "a dry run stores nothing")
        // Read again (a reload): the same report, still nothing stored.
        #expect(try admin.request("GET", checkPath).bodyText.contains("2 questions added"))

        let form = try #require(PageForm.all(in: check.bodyText, action: checkPath).first)
        let imported = try admin.request("POST", checkPath, pairs: form.filled(["publish": "0"]))
        #expect(imported.status == 303 && redirectLocation(imported) == "/admin/questions?status=draft&imported=2&exam=\(MiniExam.region)/\(MiniExam.exam)")
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE source_key LIKE 'gift:%' AND status = 'draft'") == 2)
        #expect(!(try site.browser().request("GET", MiniExam.path).bodyText.contains("Which port does SSH use?")))
        #expect(try admin.request("GET", checkPath).status == 404, "a check is used once")

        let drafts = try admin.request("GET", redirectLocation(imported))
        #expect(drafts.bodyText.contains("2 questions imported as drafts: review them below and publish them."))
        let publish = try #require(PageForm.all(in: drafts.bodyText, action: "/admin/questions/publish").first)
        // The drafts' checkboxes belong to the form from the table's rows.
        let chosen = try site.admin { try $0.query("SELECT id::text AS id FROM questions WHERE source_key LIKE 'gift:%'").rows.map { try $0.decode("id", as: String.self) } }
        #expect(chosen.allSatisfy { drafts.bodyText.contains(#"form="publish-drafts" name="question" value="\#($0)""#) })
        let published = try admin.request("POST", "/admin/questions/publish", pairs: publish.filled([:]) + chosen.map { ("question", $0) })
        #expect(published.status == 303 && redirectLocation(published) == "/admin/questions?status=draft&published=2")
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE source_key LIKE 'gift:%' AND status = 'published'") == 2)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'question.publish'") == 2)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'content.import' AND details->>'drafts' = 'yes'") == 1)
        let none = try admin.request("POST", "/admin/questions/publish", form: ["csrf_token": csrf])
        #expect(none.status == 422 && none.bodyText.contains("Choose at least one draft"))

        let check2 = try HTMLChecker.passes([("check", check.body), ("drafts", drafts.body)])
        #expect(check2.passed, "the Nu Html Checker found errors; run it on \(check2.folder) to see them")
    }

    @Test("a question already in the bank keeps its state when a file is imported as drafts: only new questions wait")
    func draftsLeaveTheBankAlone() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let into = "\(MiniExam.region)/\(MiniExam.exam)"
        try importThroughCheck(admin, ["csrf_token": csrf, "document": "::Q1:: 2+2? {=4 ~3}\n", "into": into, "domain": "alpha"])
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE source_key LIKE 'gift:%' AND status = 'published'") == 1)
        try importThroughCheck(admin, ["csrf_token": csrf, "document": "::Q1:: 2 + 2? {=4 ~3}\n\n::Q2:: 3+3? {=6 ~5}\n", "into": into, "domain": "alpha"], drafts: true)
        let states = try site.admin {
            try $0.query("SELECT string_agg(stem || '=' || status, ',' ORDER BY stem) AS s FROM questions WHERE source_key LIKE 'gift:%'").single().decode("s", as: String.self)
        }
        #expect(states == "2 + 2?=published,3+3?=draft", "the changed question stays published; the new one is a draft")
    }

    @Test("a picture named only by its file's name keeps its question a draft: imported to publish, it waits and the report says why; a bulk publish holds it back and says so; its page says what to do; given words in the editor, it is published; a portal_app connection cannot publish it either")
    func unnamedPictureWaits() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="black"/></svg>"#
        let moodle = """
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz><question type="multichoice"><name><text>Circuit</text></name>
              <questiontext format="html"><text>Which part of the circuit is shown?</text></questiontext>
              <image>circuit_diagram.svg</image><image_base64>\(Data(svg.utf8).base64EncodedString())</image_base64>
              <answer fraction="100"><text>The resistor</text></answer><answer fraction="0"><text>The source</text></answer>
            </question></quiz>
            """
        let check = try importThroughCheck(admin, ["csrf_token": csrf, "document": moodle, "into": "\(MiniExam.region)/\(MiniExam.exam)", "domain": "alpha"])
        #expect(check.bodyText.contains("its file&#39;s name (circuit_diagram.svg) stands in, so the question waits as a draft")
                || check.bodyText.contains("its file's name (circuit_diagram.svg) stands in, so the question waits as a draft"), "\(check.bodyText)")
        let id = try site.admin { try $0.query("SELECT id, status FROM questions WHERE stem LIKE 'Which part of the circuit%'").single() }
        let questionID = try id.decode("id", as: UUID.self)
        #expect(try id.decode("status", as: String.self) == "draft", "imported to publish, it waits")
        let state = { try site.admin { try $0.query("SELECT status FROM questions WHERE id = \(questionID)").single().decode("status", as: String.self) } }

        // Published in bulk with the other drafts: held back, and the list says why.
        let drafts = try admin.request("GET", "/admin/questions?status=draft").bodyText
        let publish = try #require(PageForm.all(in: drafts, action: "/admin/questions/publish").first)
        let published = try admin.request("POST", "/admin/questions/publish", pairs: publish.filled([:]) + [("question", questionID.uuidString.lowercased())])
        #expect(redirectLocation(published) == "/admin/questions?status=draft&published=0&held=1")
        #expect(try admin.request("GET", redirectLocation(published)).bodyText.contains("1 draft was held back: a picture of it is named only by its file"))
        #expect(try state() == "draft")
        let page = try admin.request("GET", "/admin/questions/\(questionID.uuidString.lowercased())").bodyText
        #expect(page.contains("This question stays a draft: a picture is named only by its file") && page.contains("(circuit_diagram.svg)"))

        // The database is the last word: an admin's own connection cannot publish it either.
        let account = try site.database.makeAccount("editor", role: "admin")
        try site.pool.asCaller(account) { try $0.execute("UPDATE questions SET status = 'published' WHERE id = \(questionID)") }
        #expect(try state() == "draft")

        // Given words in the editor, it is published.
        let editPath = "/admin/questions/\(questionID.uuidString.lowercased())/edit"
        let editor = try admin.request("GET", editPath).bodyText
        let form = try #require(PageForm.all(in: editor, action: editPath).first)
        let stem = try #require(form.fields.first { $0.name == "stem" }?.value)
        #expect(stem.contains("![circuit_diagram.svg]("))
        let saved = try admin.request("POST", editPath, pairs: form.filled([
            "stem": stem.replacingOccurrences(of: "![circuit_diagram.svg](", with: "![A resistor drawn between two wires]("), "status": "published",
        ]))
        #expect(saved.status == 303, "\(saved.bodyText.prefix(600))")
        #expect(try state() == "published")
        #expect(!(try admin.request("GET", redirectLocation(saved)).bodyText.contains("This question stays a draft")))
    }
}
