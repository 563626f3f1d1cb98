import ExamData
import Foundation
import HTTPServer
import Interop
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

@Suite("Admins shape exams in the browser", .onTestThreads)
struct ExamAdminTests {
    @Test("an admin makes a region and a draft exam, saves a blueprint that adds up to 100% (a blueprint of 110% is refused beside its total, nothing saved), and publishes it: students see it only then; every change audited")
    func regionExamBlueprintPublished() throws {
        let site = try PortalSite()
        let (admin, _) = try site.signedInAdmin()
        let (student, _, _) = try site.account("pia", role: "student")
        let region = try admin.submit("/admin/exams", to: "/admin/regions", ["code": "north", "name": "North"])
        #expect(region.status == 303 && redirectLocation(region).hasPrefix("/admin/exams?made=north"))
        // The browser keeps the address's fragment to itself.
        let list = try admin.request("GET", String(redirectLocation(region).prefix { $0 != "#" }))
        #expect(list.bodyText.contains("The region north is made"))
        let form = try #require(PageForm.all(in: list.bodyText, action: "/admin/exams").first)
        let fields = ["slug": "network-lite", "title": "Network Lite", "language": "en", "description": "A short one.", "pass_mark": "70",
                      "time_limit": "30", "question_count": "20"]
        let made = try admin.request("POST", "/admin/exams", pairs: form.filled(fields))
        #expect(made.status == 303 && redirectLocation(made) == "/admin/exams/north/network-lite")
        // Sent again (a reload of the answer): the same exam, nothing more.
        let again = try admin.request("POST", "/admin/exams", pairs: form.filled(fields))
        #expect(again.status == 303 && redirectLocation(again) == "/admin/exams/north/network-lite")
        #expect(try site.count("SELECT count(*) AS n FROM exams WHERE slug = 'network-lite' AND NOT published") == 1)

        // A draft: nowhere for students.
        #expect(try student.request("GET", "/exams/north/network-lite").status == 404)
        #expect(!(try site.browser().request("GET", "/").bodyText.contains("Network Lite")))

        let page = try admin.request("GET", "/admin/exams/north/network-lite")
        #expect(page.status == 200 && page.bodyText.contains("A draft: only admins see it"))
        let blueprint = try #require(PageForm.all(in: page.bodyText, action: "/admin/exams/north/network-lite/blueprint").first)
        let over = try admin.request("POST", "/admin/exams/north/network-lite/blueprint", pairs: blueprint.filled([
            "slug_0": "subnets", "title_0": "Subnets", "weight_0": "60", "slug_1": "ports", "title_1": "Ports", "weight_1": "50"]))
        #expect(over.status == 422 && over.bodyText.contains("The weights add up to 110%: make them add up to 100%."))
        #expect(over.bodyText.contains("value=\"Subnets\""), "what was typed stays")
        #expect(try site.count("SELECT count(*) AS n FROM domains d JOIN exams e ON e.id = d.exam_id WHERE e.slug = 'network-lite'") == 0)
        let early = try admin.request("POST", "/admin/exams/north/network-lite/publish", form: ["csrf_token": "csrf-chief", "published": "1"])
        #expect(early.status == 422 && early.bodyText.contains("save its domains first"))
        let saved = try admin.request("POST", "/admin/exams/north/network-lite/blueprint", pairs: blueprint.filled([
            "slug_0": "subnets", "title_0": "Subnets", "weight_0": "60", "slug_1": "ports", "title_1": "Ports", "weight_1": "40"]))
        #expect(saved.status == 303)
        let withDomains = try admin.request("GET", String(redirectLocation(saved).prefix { $0 != "#" })).bodyText
        #expect(withDomains.contains("The blueprint is saved.") && withDomains.contains("Together: 100%"))
        // The saved blueprint edited whole: a weight moved from one domain to the other.
        let edit = try #require(PageForm.all(in: withDomains, action: "/admin/exams/north/network-lite/blueprint").first)
        #expect(try admin.request("POST", "/admin/exams/north/network-lite/blueprint", pairs: edit.filled(["weight_0": "70", "weight_1": "30"])).status == 303)
        #expect(try site.count("SELECT weight AS n FROM domains WHERE slug = 'subnets'") == 70)

        #expect(try admin.request("POST", "/admin/exams/north/network-lite/publish", form: ["csrf_token": "csrf-chief", "published": "1"]).status == 303)
        #expect(try student.request("GET", "/exams/north/network-lite").status == 200)
        let audit = try admin.request("GET", "/admin/audit").bodyText
        for sentence in ["made the region north", "made the exam north/network-lite (Network Lite) as a draft",
                         "saved the blueprint of the exam north/network-lite (2 domains)", "published the exam north/network-lite"] {
            #expect(audit.contains(sentence), "the audit log says: \(sentence)")
        }
        let check = try HTMLChecker.passes([("exams", list.body), ("exam", page.body), ("over", over.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("bad exams are refused beside their fields, nothing made: a key with capitals, a slug taken in its region, a language that is none, numbers out of range, a domain's weight of 0")
    func refusals() throws {
        let site = try PortalSite()
        let (admin, _) = try site.signedInAdmin()
        let list = try admin.request("GET", "/admin/exams").bodyText
        let form = try #require(PageForm.all(in: list, action: "/admin/exams").first)
        let bad = try admin.request("POST", "/admin/exams", pairs: form.filled([
            "slug": "Network Lite", "title": "", "language": "English", "pass_mark": "0", "time_limit": "0", "question_count": "900"]))
        #expect(bad.status == 422)
        for sentence in ["Use lower-case letters, digits and hyphens", "Write 1 to 300 characters.", "Write a language tag", "Give a whole number from 1 to 100.",
                         "Give a whole number from 1 to 1440.", "Give a whole number from 1 to 500."] {
            #expect(bad.bodyText.contains(sentence), "\(sentence)")
        }
        let taken = try admin.request("POST", "/admin/exams", pairs: form.filled([
            "region": MiniExam.region, "slug": MiniExam.exam, "title": "Again", "language": "en", "pass_mark": "70", "time_limit": "30", "question_count": "10"]))
        #expect(taken.status == 422 && taken.bodyText.contains("An exam of this region has this address already"))
        let regionForm = try #require(PageForm.all(in: list, action: "/admin/regions").first)
        let region = try admin.request("POST", "/admin/regions", pairs: regionForm.filled(["code": MiniExam.region, "name": "Again"]))
        #expect(region.status == 422 && region.bodyText.contains("A region has this code already."))
        #expect(try site.count("SELECT count(*) AS n FROM exams") == 1 && (try site.count("SELECT count(*) AS n FROM regions")) == 1)
        let page = try admin.request("GET", "/admin/exams/\(MiniExam.region)/\(MiniExam.exam)").bodyText
        let blueprint = try #require(PageForm.all(in: page, action: "/admin/exams/\(MiniExam.region)/\(MiniExam.exam)/blueprint").first)
        let zero = try admin.request("POST", "/admin/exams/\(MiniExam.region)/\(MiniExam.exam)/blueprint", pairs: blueprint.filled(["weight_0": "0"]))
        #expect(zero.status == 422 && zero.bodyText.contains("Give a whole number from 1 to 100."))
        #expect(try site.count("SELECT sum(weight) AS n FROM domains") == 100)
    }

    @Test("students and teachers cannot see a draft or make one themselves, even straight through a portal_app connection; a format-1 document whose weights do not add up to 100 is refused")
    func draftsAreTheAdmins() throws {
        let site = try PortalSite()
        let (admin, _) = try site.signedInAdmin()
        let list = try admin.request("GET", "/admin/exams").bodyText
        let form = try #require(PageForm.all(in: list, action: "/admin/exams").first)
        _ = try admin.request("POST", "/admin/exams", pairs: form.filled([
            "slug": "secret", "title": "Secret", "language": "en", "pass_mark": "70", "time_limit": "30", "question_count": "10"]))
        let teacher = try site.database.makeAccount("tutor", role: "teacher")
        for caller in [teacher, try site.database.makeAccount("pia")] {
            let seen = try site.pool.asCaller(caller) { try $0.query("SELECT count(*) AS n FROM exams WHERE slug = 'secret'").single().decode("n", as: Int.self) }
            #expect(seen == 0)
            let published = try site.pool.asCaller(caller) { try $0.execute("UPDATE exams SET published = true") }
            #expect(published == 0)
        }
        #expect(try site.count("SELECT count(*) AS n FROM exams WHERE slug = 'secret' AND NOT published") == 1)
        #expect(try site.browser().request("GET", "/exams/\(MiniExam.region)/secret").status == 404)

        let document = ContentDocument(format: 1, regions: [ContentDocument.Region(code: "r", name: "R", exams: [ContentDocument.Exam(
            slug: "e", title: "E", description: nil, language: "en", passMark: 70, timeLimitSeconds: 600, questionCount: 10,
            domains: [ContentDocument.Domain(slug: "a", title: "A", weight: 90, questions: []), ContentDocument.Domain(slug: "b", title: "B", weight: 60, questions: [])])])])
        let problems = ContentImport().problems(document)
        #expect(problems.contains { $0.field == "domains" && $0.problem == "the domains' weights must add up to 100 (they add up to 150)" })
    }

    @Test("an exam reports a scaled score: set in the admin's form (a pass score above the highest refused beside the fields, what was typed kept), kept by format 1 both ways, refused by the database out of order; a mock's results show it with each domain's band")
    func scaledScore() throws {
        let site = try PortalSite()
        let (admin, _) = try site.signedInAdmin()
        let path = "/admin/exams/\(MiniExam.region)/\(MiniExam.exam)"
        let page = try admin.request("GET", path).bodyText
        let form = try #require(PageForm.all(in: page, action: path).first)
        let bad = try admin.request("POST", path, pairs: form.filled(["scaled_min": "100", "scaled_pass": "1200", "scaled_max": "1000"]))
        #expect(bad.status == 422 && bad.bodyText.contains("Give all three scores, the lowest below the pass score"))
        #expect(bad.bodyText.contains(#"name="scaled_pass" type="number" min="0" max="100000" value="1200""#), "what was typed stays")
        let half = try admin.request("POST", path, pairs: form.filled(["scaled_min": "100", "scaled_pass": "", "scaled_max": "1000"]))
        #expect(half.status == 422)
        #expect(try site.count("SELECT count(*) AS n FROM exams WHERE scaled_min IS NOT NULL") == 0)
        let saved = try admin.request("POST", path, pairs: form.filled(["scaled_min": "100", "scaled_pass": "700", "scaled_max": "1000"]))
        #expect(saved.status == 303)
        #expect(try site.count("SELECT scaled_pass AS n FROM exams WHERE slug = \(MiniExam.exam)") == 700)
        #expect(try site.browser().request("GET", "/exams/\(MiniExam.region)/\(MiniExam.exam)").bodyText.contains("<dt>Scaled score</dt><dd>100 to 1000, 700 to pass</dd>"),
                "the exam page, kept for visitors, tells them at once")

        // Format 1 carries it out and back; a file without it states an exam without one.
        let exported = try site.admin { try #require(try ContentImport().export(region: MiniExam.region, exam: MiniExam.exam, $0)) }
        #expect(exported.regions[0].exams[0].scaledScore == ScaledScore(min: 100, pass: 700, max: 1000))
        let json = String(decoding: try JSONEncoder().encode(exported), as: UTF8.self)
        #expect(json.contains(#""scaledScore":{"#))
        var upsideDown = exported
        upsideDown.regions[0].exams[0].scaledScore = ScaledScore(min: 900, pass: 700, max: 1000)
        #expect(ContentImport().problems(upsideDown).map { "\($0)" }.contains { $0.contains("scaledScore") && $0.contains("above the lowest") })
        // The database refuses a scale out of order, whoever writes it.
        #expect(throws: PostgresError.self) {
            try site.admin { try $0.execute("UPDATE exams SET scaled_min = 800, scaled_pass = 700, scaled_max = 1000 WHERE slug = \(MiniExam.exam)") }
        }

        // A mock exam's results: the scaled score beside the percentage, a band for each domain.
        let student = site.browser()
        try student.register("sofia")
        let (_, session) = try startSession(student, mode: "mock")
        for number in 1...MiniExam.questionCount {
            let question = try QuestionForm(try student.request("GET", "\(session)?q=\(number)"))
            try student.request("POST", session + "/answers", pairs: question.pairs(question.item.key))
        }
        try student.request("POST", session + "/finish", form: ["csrf_token": student.csrfToken(from: try student.request("GET", session + "/finish"))])
        let results = try student.request("GET", session + "/results").bodyText
        #expect(results.contains("Scaled score: <strong>1000 (pass 700, scale 100–1000)</strong>"), "every answer right scores the highest")
        #expect(results.contains(#"<span class="band meets">Meets the pass mark</span>"#))
        let check = try HTMLChecker.passes([("results", Array(results.utf8)), ("refused", bad.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }
}
