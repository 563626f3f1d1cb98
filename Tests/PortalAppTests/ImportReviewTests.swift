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
}
