import ExamData
import Foundation
import HTTPServer
import Interop
import PortalApp
import PortalTestSupport
import PostgresClient
import QuestionEngine
import TestSupport
import Testing

/// The admin content dashboard: the area's gate, import and export, reports and the audit log.
@Suite("Admin dashboard", .onTestThreads)
struct AdminTests {

    /// What one showing of the question editor at `path` gives its form: the one-time token and
    /// the version it edits.
    static func editorShowing(_ admin: Browser, _ path: String) throws -> [(String, String)] {
        let page = try admin.request("GET", path)
        return [("form_token", admin.formToken(from: page)), ("version", admin.hiddenValue("version", from: page))]
    }

    func importDocument(_ browser: Browser, csrf: String, _ text: String) throws -> RawHTTPClient.Response {
        try importThroughCheck(browser, ["csrf_token": csrf, "document": text])
    }

    @Test("the import page reads a GIFT file into the exam chosen, names the format and what was left out, and refuses with reasons")
    func importGIFT() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let gift = try String(contentsOfFile: TestPaths.repository + "/Tests/Fixtures/import/networking.gift", encoding: .utf8)
        let into = "\(MiniExam.region)/\(MiniExam.exam)"
        let form = try admin.request("GET", "/admin/import")
        #expect(form.bodyText.contains(#"<option value="\#(into)">"#))
        // No exam chosen; unsupported items without leave to skip them: nothing written, reasons given.
        let noExam = try admin.submit("/admin/import", to: "/admin/import", ["csrf_token": csrf, "document": gift])
        #expect(noExam.status == 422)
        #expect(noExam.bodyText.contains("GIFT has no exams of its own: choose the exam to import into."))
        let unsupported = try admin.submit("/admin/import", to: "/admin/import", ["csrf_token": csrf, "document": gift, "into": into])
        #expect(unsupported.status == 422)
        #expect(unsupported.bodyText.contains("2 items have no equivalent in the portal, so nothing was imported."))
        #expect(unsupported.bodyText.contains("line 41") && unsupported.bodyText.contains("a weight pattern"))
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE source_key LIKE 'gift:%'") == 0)
        let unknown = try admin.submit("/admin/import", to: "/admin/import", ["csrf_token": csrf, "document": "Just some notes.", "into": into])
        #expect(unknown.status == 422 && unknown.bodyText.contains("This is in no format the importer knows"))

        let imported = try importThroughCheck(admin, ["csrf_token": csrf, "document": gift, "into": into, "skip_unsupported": "on"])
        #expect(imported.status == 200)
        #expect(imported.bodyText.contains("Read as GIFT. Imported into 1 exam: 12 questions added, 0 changed, 0 unchanged."))
        #expect(imported.bodyText.contains("line 33: an essay question"))
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE source_key LIKE 'gift:%' AND status = 'published'") == 12)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'content.import' AND details->>'format' = 'GIFT'") == 1)
        let check = try HTMLChecker.passes([("import form", form.body), ("refused", unsupported.body), ("imported", imported.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        // The exam goes out again in every format the dashboard offers.
        for (suffix, type) in [("export.json", "application/json"), ("export.moodle.xml", "application/xml"), ("export.qti.zip", "application/zip"),
                               ("export.qti21.zip", "application/zip")] {
            let exported = try admin.request("GET", "/admin/exams/\(into)/\(suffix)")
            #expect(exported.status == 200 && exported.header("Content-Type")?.hasPrefix(type) == true, "\(suffix)")
        }
        // The questions are studied like any other: the exam page counts them.
        #expect(try site.browser().request("GET", MiniExam.path).bodyText.contains("Ports"))
    }

    @Test("pictures embedded in a Moodle file are stored, served under their digest for good and shown with their options; any other name is a 404")
    func importPictures() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let moodle = try String(contentsOfFile: TestPaths.repository + "/Tests/Fixtures/import/topology.moodle.xml", encoding: .utf8)
        let into = "\(MiniExam.region)/\(MiniExam.exam)"
        let imported = try importThroughCheck(admin, ["csrf_token": csrf, "document": moodle, "into": into, "skip_unsupported": "on"])
        #expect(imported.status == 200)
        #expect(imported.bodyText.contains("1 question added, 0 changed, 0 unchanged. 3 new pictures stored."))
        #expect(imported.bodyText.contains("the picture star.svg in the question text has no alt text: give it one"))
        #expect(try site.count("SELECT count(*) AS n FROM content_images") == 3)
        let (id, paths) = try site.admin { connection in
            let row = try connection.query("SELECT id::text AS id, options FROM questions WHERE source_key LIKE 'moodle:%'").single()
            let options = try row.decodeJSON("options", as: [[String: String]].self)
            return (try row.decode("id", as: String.self), options.compactMap { $0["imageUrl"] })
        }
        #expect(paths.count == 3 && paths.allSatisfy { $0.hasPrefix("/content-images/") })

        // Served to anyone, for good, as what its bytes are; an SVG in a sandbox of its own.
        let visitor = site.browser()
        let star = try visitor.request("GET", paths[0])
        #expect(star.status == 200)
        #expect(star.header("Content-Type") == "image/svg+xml" && star.header("X-Content-Type-Options") == "nosniff")
        #expect(star.header("Content-Security-Policy")?.contains("sandbox") == true)
        #expect(star.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(star.bodyText.contains("<title>Star</title>"))
        let etag = try #require(star.header("ETag"))
        #expect(try visitor.request("GET", paths[0], extraHeaders: "If-None-Match: \(etag)\r\n").status == 304)
        let dot = try visitor.request("GET", paths[2])
        #expect(dot.status == 200 && dot.header("Content-Type") == "image/png")
        let digest = String(paths[0].dropFirst("/content-images/".count).prefix(64))
        for missing in ["/content-images/\(digest).png", "/content-images/\(String(repeating: "0", count: 64)).svg", "/content-images/star.svg"] {
            let response = try visitor.request("GET", missing)
            #expect(response.status == 404, "\(missing)")
        }
        // A path climbing out is refused by the server before any route sees it.
        #expect(try visitor.request("GET", "/content-images/..%2F..%2Fetc%2Fpasswd").status == 400)
        // The admin's preview shows each option's picture.
        let preview = try admin.request("GET", "/admin/questions/\(id)")
        #expect(paths.allSatisfy { preview.bodyText.contains(#"<img src="\#($0)" alt="">"#) })
        let check = try HTMLChecker.passes([("imported with pictures", imported.body), ("preview with pictures", preview.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("everyone but an admin gets the ordinary 404 on every admin URL")
    func gate() throws {
        let site = try PortalSite()
        let (student, _, studentCSRF) = try site.account("student", role: "student")
        let (teacher, _, teacherCSRF) = try site.account("teacher", role: "teacher")
        for (browser, csrf) in [(site.browser(), ""), (student, studentCSRF), (teacher, teacherCSRF)] {
            for path in ["/admin", "/admin/import", "/admin/reports", "/admin/audit", "/admin/exams/\(MiniExam.region)/\(MiniExam.exam)/export.json",
                         "/admin/questions", "/admin/questions/\(MiniExam.items[0].id.uuidString)"] {
                let response = try browser.request("GET", path)
                #expect(response.status == 404, "\(path)")
                #expect(response.bodyText.contains("Page not found"))
            }
            #expect(try importDocument(browser, csrf: csrf, ContentDocuments.document(stem: "x")).status != 200)
            #expect(try browser.request("POST", "/admin/reports/\(UUID().uuidString)", form: ["csrf_token": csrf, "resolution": "fixed"]).status != 303)
        }
        #expect(try site.count("SELECT count(*) AS n FROM exams") == 1, "nothing was imported by anyone")
    }

    @Test("a document with problems is refused whole, with each problem named by item and field")
    func importReport() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        var broken = ContentDocuments.document(stem: "", passMark: 0, extraKey: "q1")
        broken = broken.replacingOccurrences(of: "\"correct\": [1, 2, 0]", with: "\"correct\": [1, 2]")
        let refused = try importDocument(admin, csrf: csrf, broken)
        #expect(refused.status == 422)
        let html = refused.bodyText
        #expect(html.contains("Nothing was imported"))
        #expect(html.contains("regions[0] (imported).exams[0] (arithmetic)</code></td><td><code>passMark"))
        #expect(html.contains("questions[0] (q1)</code></td><td><code>stem"))
        #expect(html.contains("an ordering key must list every option exactly once"))
        #expect(html.contains("appears twice in this exam"))
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE source_key IS NOT NULL") == 0)
        let notJSON = try importDocument(admin, csrf: csrf, "{\"format\": 1, \"regions\": [{\"code\": 5}]}")
        #expect(notJSON.status == 422)
        #expect(notJSON.bodyText.contains("has the wrong type"))
    }

    @Test("a valid document imports all at once; the same again changes nothing; an edit makes a new version; the audit log has both")
    func importIdempotent() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let first = try importDocument(admin, csrf: csrf, ContentDocuments.document(stem: "What is 2 + 2?"))
        #expect(first.status == 200)
        #expect(first.bodyText.contains("3 questions added, 0 changed, 0 unchanged"))
        let version = { try site.admin { try $0.query("SELECT content_updated_at FROM exams WHERE slug = 'arithmetic'").first!.decode("content_updated_at", as: Date.self) } }
        let before = try version()
        let again = try importDocument(admin, csrf: csrf, ContentDocuments.document(stem: "What is 2 + 2?"))
        #expect(again.bodyText.contains("0 questions added, 0 changed, 3 unchanged"))
        #expect(try version() == before, "an import that changes nothing leaves the content version alone")
        let edited = try importDocument(admin, csrf: csrf, ContentDocuments.document(stem: "What is two plus two?"))
        #expect(edited.bodyText.contains("0 questions added, 1 changed, 2 unchanged"))
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE source_key = 'q1' AND version = 2") == 1)
        #expect(try version() > before)
        let audit = try admin.request("GET", "/admin/audit?action=content.import").bodyText
        #expect(audit.components(separatedBy: "<code>content.import</code>").count - 1 == 3)
        #expect(audit.contains("Chief Editor"))
    }

    @Test("an exported exam imports into an empty database and exports again the same")
    func exportRoundTrip() throws {
        let source = try TestDatabase.demoCatalogue()
        let importer = ContentImport()
        let exported = try #require(try importer.export(region: "europe", exam: "network-fundamentals", try source.adminConnection()))
        #expect(exported.regions[0].exams[0].domains.flatMap(\.questions).count == 1500)
        #expect(importer.problems(exported).isEmpty)
        let target = try TestDatabase(migrated: true)
        let connection = try target.adminConnection()
        let summary = try connection.withTransaction { try importer.apply(exported, $0) }
        #expect(summary.questionsAdded == 1500)
        let again = try #require(try importer.export(region: "europe", exam: "network-fundamentals", connection))
        #expect(again == exported)
        // Through the page too: the admin's export is the document.
        let site = try PortalSite()
        let (admin, _) = try site.signedInAdmin()
        let download = try admin.request("GET", "/admin/exams/\(MiniExam.region)/\(MiniExam.exam)/export.json")
        #expect(download.status == 200)
        #expect(download.header("Content-Disposition") == "attachment; filename=\"\(MiniExam.region)-\(MiniExam.exam).json\"")
        #expect(download.bodyText.contains("\"format\" : 1"))
    }

    @Test("a student's report reaches the queue; closing it records who and why")
    func reportQueue() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let (student, _, studentCSRF) = try site.account("reporter", role: "student", displayName: "Rae Porter")
        let item = MiniExam.items[0]
        try student.request("POST", "/questions/\(item.id.uuidString.lowercased())/reports", form: ["csrf_token": studentCSRF, "reason": "typo", "comment": "Teh"])
        let queue = try admin.request("GET", "/admin/reports").bodyText
        #expect(queue.contains("Rae Porter") && queue.contains("“Teh”") && queue.contains("A typo or formatting error"))
        let id = try site.admin { try $0.query("SELECT id FROM question_reports").first!.decode("id", as: UUID.self) }
        let closed = try admin.request("POST", "/admin/reports/\(id.uuidString.lowercased())", form: ["csrf_token": csrf, "resolution": "fixed", "note": "Spelling fixed"])
        #expect(closed.status == 303)
        #expect(try admin.request("GET", "/admin/reports").bodyText.contains("No reports are waiting."))
        #expect(try admin.request("POST", "/admin/reports/\(id.uuidString.lowercased())", form: ["csrf_token": csrf, "resolution": "fixed"]).status == 404)
        #expect(try admin.request("POST", "/admin/reports/\(id.uuidString.lowercased())", form: ["csrf_token": csrf, "resolution": "ignored"]).status == 400)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'report.fixed' AND details->>'note' = 'Spelling fixed'") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM question_reports WHERE resolution = 'fixed'") == 1)
    }

    @Test("the question list filters and finds text in any language; a question's page shows the key, its versions and reports")
    func questionList() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        _ = try importDocument(admin, csrf: csrf, ContentDocuments.document(stem: "データベースの正規化とは?"))
        let all = try admin.request("GET", "/admin/questions").bodyText
        #expect(all.contains("10 questions match."), "the mini exam's seven and the three imported")
        let japanese = try admin.request("GET", "/admin/questions?q=" + "正規化".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!).bodyText
        #expect(japanese.contains("1 question matches.") && japanese.contains("データベースの正規化とは?"))
        let wildcard = try admin.request("GET", "/admin/questions?q=%25%25%25").bodyText
        #expect(wildcard.contains("0 questions match."), "a % in the search is a character, not a wildcard")
        let drafts = try admin.request("GET", "/admin/questions?status=draft&exam=imported/arithmetic").bodyText
        #expect(drafts.contains("1 question matches.") && drafts.contains("What does it print?"))
        // The filters beside the search fold away until one is in use, then say how many are.
        #expect(all.contains("<details class=\"more-filters\">") && japanese.contains("<details class=\"more-filters\">"))
        #expect(drafts.contains("<details class=\"more-filters\" open>") && drafts.contains("Filters (2)"))
        #expect(try admin.request("GET", "/admin/questions?difficulty=9").status == 400)
        #expect(try admin.request("GET", "/admin/questions?exam=nowhere/none").status == 400)
        // An edit, then the question's page: two versions, the key, the preview.
        _ = try importDocument(admin, csrf: csrf, ContentDocuments.document(stem: "データベースの正規化とは何ですか?"))
        let id = try site.admin { try $0.query("SELECT id FROM questions WHERE source_key = 'q1'").first!.decode("id", as: UUID.self) }
        let page = try admin.request("GET", "/admin/questions/\(id.uuidString.lowercased())").bodyText
        #expect(page.contains("Version 2") && page.contains("Version 1"))
        #expect(page.contains("データベースの正規化とは?"), "the first version's text is kept")
        #expect(page.contains("<span class=\"option-text\">4</span> <strong class=\"tag\">correct answer</strong>"))
        #expect(try admin.request("GET", "/admin/questions/\(UUID().uuidString)").status == 404)
    }

    @Test("item statistics from first mock attempts match a hand-computed set, and flag what needs review")
    func itemStatistics() throws {
        let site = try PortalSite()
        let (admin, _) = try site.signedInAdmin()
        let items = [MiniExam.items[0], MiniExam.items[1], MiniExam.items[5], MiniExam.items[6]]  // A, B, C, D
        // Responses of five students to A, B, C, D (option indexes); totals right: 3, 3, 2, 1, 1.
        let responses: [[Int]] = [[0, 1, 3, 0], [0, 1, 3, 0], [0, 1, 0, 0], [0, 0, 1, 0], [1, 2, 2, 2]]
        let examID = try site.admin { try $0.query("SELECT id FROM exams WHERE slug = \(MiniExam.exam)").first!.decode("id", as: Int.self) }
        let start = site.clock.read()
        for (index, picks) in responses.enumerated() {
            let student = try site.database.makeAccount("taker\(index)")
            try site.pool.asCaller(student) { connection in
                let store = StudyStore()
                let session = try store.create(NewStudySession(
                    userID: student.id, examID: examID, mode: .mock, config: [:], questionIDs: items.map(\.id), startedAt: start), connection)
                for (item, pick) in zip(items, picks) {
                    _ = try AnswerRecorder().record(RecordedAnswer(
                        id: UUID(), sessionID: session, questionID: item.id, questionVersion: 1, response: .indexes([pick]), correct: [pick] == item.key,
                        score: [pick] == item.key ? 1 : 0, rating: nil, milliseconds: 4000 + 1000 * index, answeredAt: start.addingTimeInterval(10)), userID: student.id, connection)
                }
                _ = try store.finish(sessionID: session, at: start.addingTimeInterval(30), connection)
            }
        }
        let reader = try site.database.makeAccount("statistician", role: "admin")
        let statistics = try site.pool.asCaller(reader) { try AdminStore().itemStatistics(questionIDs: items.map(\.id), $0) }
        let a = try #require(statistics[items[0].id]), d = try #require(statistics[items[3].id])
        #expect(a.attempts == 5 && abs(a.facility - 0.8) < 1e-9)
        #expect(abs((a.discrimination ?? 0) - 0.04 / (0.16 * 0.56).squareRoot()) < 1e-9)
        #expect(abs((a.efficiency ?? 0) - 0.04 / 0.24) < 1e-9)
        #expect(abs((a.averageMilliseconds ?? 0) - 6000) < 1e-9)
        #expect(abs(d.facility - 0.2) < 1e-9)
        #expect(abs((d.discrimination ?? 0) - (-0.36 / (0.16 * 1.36).squareRoot())) < 1e-9)
        #expect(abs((d.efficiency ?? 0) - (-1.5)) < 1e-9)
        #expect(d.optionShares == [0: 0.8, 2: 0.2])
        func flags(_ index: Int) -> [ItemFlag] {
            ItemReview.flags(statistics[items[index].id], kind: .singleChoice, key: items[index].key, optionTexts: items[index].options)
        }
        #expect(flags(0) == [.unusedOption], "Cat and Dog are never picked; efficiency 0.17 passes")
        #expect(flags(3) == [.lowEfficiency, .unusedOption, .longestIsKey])
        let page = try admin.request("GET", "/admin/questions/\(items[3].id.uuidString.lowercased())").bodyText
        #expect(page.contains("<dd>0.20</dd>") && page.contains("<dd>-150%</dd>"))
        #expect(page.contains("The correct option is the longest one."))
        let overview = try admin.request("GET", "/admin").bodyText
        #expect(overview.contains("<a href=\"/admin/questions?exam=\(MiniExam.region)/\(MiniExam.exam)&amp;flagged=on\" title=\"List the questions that need review\">3</a>"),
                "A, B (its key is the longest) and D need review; C does not; the count leads to them")
        #expect(overview.contains("<a href=\"/admin/questions?exam=\(MiniExam.region)/\(MiniExam.exam)\" lang=\"en\">Mini exam</a>"))
        let flaggedList = try admin.request("GET", "/admin/questions?exam=\(MiniExam.region)/\(MiniExam.exam)&flagged=on").bodyText
        #expect(flaggedList.contains("3 questions match."))
    }

    @Test("editing: errors beside the fields and nothing saved; a good edit adds, removes and reorders options as a new version, bumps the content version and is audited")
    func editing() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let item = MiniExam.items[0]  // single choice: Ant, Bee, Cat, Dog; key 0
        let path = "/admin/questions/\(item.id.uuidString.lowercased())/edit"
        let form = try admin.request("GET", path)
        #expect(form.status == 200 && form.bodyText.contains("value=\"Ant\""))
        // The four options and one blank row, not ten.
        #expect(form.bodyText.contains("id=\"opt-text-4\"") && !form.bodyText.contains("id=\"opt-text-5\""))
        let domainID = try site.admin { try $0.query("SELECT domain_id FROM questions WHERE id = \(item.id)").first!.decode("domain_id", as: Int.self) }
        func submit(_ extra: [(String, String)]) throws -> RawHTTPClient.Response {
            // As an admin does: the editor opened (its token and version), then saved.
            try admin.request("POST", path, pairs: try Self.editorShowing(admin, path) + [
                ("csrf_token", csrf), ("domain", String(domainID)), ("type", "single-choice"), ("difficulty", "2"),
                ("status", "published"), ("explanation", "Ants come first.")] + extra)
        }
        let contentVersion = { try site.admin { try $0.query("SELECT content_updated_at FROM exams WHERE slug = \(MiniExam.exam)").first!.decode("content_updated_at", as: Date.self) } }
        let before = try contentVersion()
        // No stem, and no option ticked: both said beside their fields; nothing saved.
        let refused = try submit([("stem", " "), ("opt_text_0", "Ant"), ("opt_text_1", "Bee")])
        #expect(refused.status == 422)
        #expect(refused.bodyText.contains("id=\"stem-error\">Write a stem of 1 to 20000 characters."))
        #expect(refused.bodyText.contains("id=\"options-error\" role=\"alert\">Choose the right answer: tick it in its row."), "in an editor's words")
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE id = \(item.id) AND version = 1") == 1)
        // A problem with one option is on its own row, its hidden fields opened when the
        // problem is there; "add another option" gives one more blank row and saves nothing.
        let badImage = try submit([("stem", "Which?"), ("opt_text_0", "Ant"), ("opt_key_0", "on"), ("opt_text_2", "Cat"),
                                   ("opt_image_2", "http://elsewhere.example/cat.png")])
        #expect(badImage.status == 422)
        #expect(badImage.bodyText.contains("Option 3 has a problem: see its row."))
        #expect(badImage.bodyText.contains("<p class=\"form-error\" id=\"opt-error-2\">Option 3: the image address must be"))
        #expect(badImage.bodyText.contains("<details open>"))
        #expect(badImage.bodyText.contains("name=\"opt_image_2\" type=\"text\" value=\"http://elsewhere.example/cat.png\" aria-invalid=\"true\""))
        let noText = try submit([("stem", "Which?"), ("opt_text_0", "Ant"), ("opt_key_0", "on"), ("opt_explanation_1", "Why not")])
        #expect(noText.bodyText.contains("id=\"opt-error-1\">Option 2 has no text"))
        let more = try submit([("stem", "Which?"), ("opt_id_0", ""), ("opt_text_0", "Ant"), ("opt_id_1", ""), ("add_row", "1")])
        #expect(more.status == 200)
        #expect(more.bodyText.contains("id=\"opt-text-2\"") && !more.bodyText.contains("id=\"opt-text-3\""), "one more row than the two sent")
        #expect(!more.bodyText.contains("form-error"), "adding a row checks nothing yet")
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE id = \(item.id) AND version = 1") == 1)
        // No option ticked on a single-choice question: said in an editor's words.
        let none = try submit([("stem", "Which?"), ("opt_text_0", "Ant"), ("opt_text_1", "Bee")])
        #expect(none.status == 422 && none.bodyText.contains("Choose the right answer: tick it in its row."))
        // Remove Cat and Dog, add Eel, put Bee first, keep Ant correct.
        let saved = try submit([
            ("stem", "Which animal comes first?"), ("opt_id_0", "o0"), ("opt_text_0", "Ant"), ("opt_order_0", "2"), ("opt_key_0", "on"),
            ("opt_id_1", "o1"), ("opt_text_1", "Bee"), ("opt_order_1", "1"), ("opt_text_4", "Eel"), ("opt_order_4", "3"),
        ])
        #expect(saved.status == 303)
        let row = try site.admin { try $0.query("SELECT version, options->>0 AS first, jsonb_array_length(options) AS n, correct::text AS key FROM questions WHERE id = \(item.id)").first! }
        #expect(try row.decode("version", as: Int.self) == 2)
        #expect(try row.decode("n", as: Int.self) == 3)
        #expect(try row.decode("first", as: String.self).contains("Bee"))
        #expect(try row.decode("key", as: String.self) == "[1]", "Ant, now second, is still the key")
        #expect(try contentVersion() > before, "offline copies learn of the change")
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'question.edit' AND details->>'version' = '2'") == 1)
        // The audit log says it in words, links the question and shows the lines the edit changed.
        let audit = try admin.request("GET", "/admin/audit?action=question.edit").bodyText
        #expect(audit.contains("Chief Editor saved version 2 of the question “Which animal comes first?” (published)."), "\(audit)")
        #expect(audit.contains(#"<a href="/admin/questions/\#(item.id.uuidString.lowercased())">Open the question</a>"#))
        #expect(audit.contains("<summary>What changed</summary>"))
        #expect(audit.contains("<ins>+ ") && audit.contains("<del>- "))
        #expect(audit.components(separatedBy: "<ins>+ ").contains { $0.hasPrefix("    &quot;stem&quot;: &quot;Which animal comes first?&quot;") }, "the new stem is an added line")
        // Kept for exams: the box makes a new version, shown ticked, and goes out with the export.
        #expect(try submit([
            ("stem", "Which animal comes first?"), ("opt_id_0", "o1"), ("opt_text_0", "Bee"), ("opt_id_1", "o0"), ("opt_text_1", "Ant"), ("opt_key_1", "on"),
            ("opt_id_4", "o4"), ("opt_text_2", "Eel"), ("exam_only", "on"),
        ]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE id = \(item.id) AND exam_only AND version = 3") == 1)
        #expect(try admin.request("GET", path).bodyText.contains("name=\"exam_only\" aria-describedby=\"q-exam-only-hint\" checked"))
        try site.database.adminConnection().execute("UPDATE questions SET source_key = 'mini-a1' WHERE id = \(item.id)")
        let exported = try admin.request("GET", "/admin/exams/\(MiniExam.region)/\(MiniExam.exam)/export.json").bodyText
        #expect(exported.contains("\"examOnly\":true") || exported.contains("\"examOnly\" : true"))
        // A new ordering question.
        let created = try admin.request("POST", "/admin/questions/new", pairs: try Self.editorShowing(admin, "/admin/questions/new") + [
            ("csrf_token", csrf), ("domain", String(domainID)), ("type", "ordering"), ("difficulty", "3"), ("status", "draft"), ("stem", "Smallest first"),
            ("opt_text_0", "3"), ("opt_keypos_0", "3"), ("opt_text_1", "1"), ("opt_keypos_1", "1"), ("opt_text_2", "2"), ("opt_keypos_2", "2"),
        ])
        #expect(created.status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE stem = 'Smallest first' AND correct = '[1, 2, 0]' AND status = 'draft'") == 1)
        #expect(try admin.request("POST", "/admin/questions/\(UUID().uuidString)/edit", form: ["csrf_token": csrf]).status == 404)
    }

    @Test("two admins editing one question: the later save, made on the version both opened, is refused with what the other changed, the edits kept; saving again then is a choice made knowingly")
    func twoAdminsOneQuestion() throws {
        let site = try PortalSite()
        let (first, csrf) = try site.signedInAdmin()
        let (second, _, secondCSRF) = try site.account("deputy", role: "admin", displayName: "Deputy Editor")
        let item = MiniExam.items[0]
        let path = "/admin/questions/\(item.id.uuidString.lowercased())/edit"
        let firstForm = try first.request("GET", path), secondForm = try second.request("GET", path)
        func edit(_ browser: Browser, _ page: RawHTTPClient.Response, csrf: String, explanation: String) throws -> RawHTTPClient.Response {
            let form = try #require(PageForm.all(in: page.bodyText, action: path).first)
            return try browser.request("POST", path, pairs: form.filled(["csrf_token": csrf, "explanation": explanation]))
        }
        #expect(try edit(first, firstForm, csrf: csrf, explanation: "Ants are insects; the rest are not.").status == 303)
        let refused = try edit(second, secondForm, csrf: secondCSRF, explanation: "Ant comes first in the alphabet.")
        #expect(refused.status == 409)
        let page = refused.bodyText
        #expect(page.contains("Someone saved this question after you opened it (it is now version 2), so nothing was saved."))
        #expect(page.contains("<summary>What their save changed</summary>") && page.contains("Ants are insects; the rest are not."))
        #expect(page.contains("Ant comes first in the alphabet."), "the refused edit is kept in the form")
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE id = \(item.id) AND version = 2 AND explanation = 'Ants are insects; the rest are not.'") == 1)
        let check = try HTMLChecker.passes([("editor, saved since", refused.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
        // Saving the form as it came back replaces the other's edit, knowingly.
        #expect(try edit(second, refused, csrf: secondCSRF, explanation: "Ant comes first in the alphabet.").status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE id = \(item.id) AND version = 3 AND explanation = 'Ant comes first in the alphabet.'") == 1)
    }

    @Test("the editor writes matching, fill-in and hotspot questions, their own fields one per line, and refuses a malformed one with the rule's words")
    func editingNewerKinds() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let domainID = try site.count("SELECT min(id) AS n FROM domains")
        let common = [("csrf_token", csrf), ("domain", String(domainID)), ("difficulty", "2"), ("status", "published")]
        let matching = try admin.request("POST", "/admin/questions/new", pairs: try Self.editorShowing(admin, "/admin/questions/new") + common + [
            ("type", "matching"), ("stem", "Match each port."), ("targets", "SSH\r\nDNS\r\n\r\nSMTP"),
            ("opt_text_0", "22"), ("opt_target_0", "1"), ("opt_text_1", "53"), ("opt_target_1", "2"),
        ])
        #expect(matching.status == 303)
        #expect(try site.count("""
            SELECT count(*) AS n FROM questions WHERE type = 'matching' AND correct = '[0, 1]'
              AND details = '{"targets": [{"id": "t1", "text": "SSH"}, {"id": "t2", "text": "DNS"}, {"id": "t3", "text": "SMTP"}]}'
            """) == 1)
        let fillIn = try admin.request("POST", "/admin/questions/new", pairs: try Self.editorShowing(admin, "/admin/questions/new") + common + [
            ("type", "fill-in"), ("stem", "How many bits in an IPv4 address?"), ("accepted", "32\n"), ("match", "numeric"), ("tolerance", "0,5"),
        ])
        #expect(fillIn.status == 303)
        #expect(try site.count("""
            SELECT count(*) AS n FROM questions WHERE type = 'fill-in' AND options = '[]' AND details = '{"match": "numeric", "accepted": ["32"], "tolerance": 0.5}'
            """) == 1)
        let hotspot = try admin.request("POST", "/admin/questions/new", pairs: try Self.editorShowing(admin, "/admin/questions/new") + common + [
            ("type", "hotspot"), ("stem", "Click the hub."), ("hotspot_image", "/images/diagrams/network-a.svg"),
            ("opt_text_0", "Hub"), ("opt_shape_0", "circle"), ("opt_coords_0", "100, 100, 30"), ("opt_key_0", "on"),
            ("opt_text_1", "Leaf"), ("opt_shape_1", "rect"), ("opt_coords_1", "10 10 40 40"),
        ])
        #expect(hotspot.status == 303)
        let id = try site.admin { try $0.query("SELECT id::text AS id FROM questions WHERE type = 'hotspot'").single().decode("id", as: String.self) }
        let form = try admin.request("GET", "/admin/questions/\(id)/edit").bodyText
        #expect(form.contains("<option value=\"circle\" selected>") && form.contains("value=\"100, 100, 30\""), "the regions come back as typed")
        // Only the kind's own fields show: a hotspot's regions and picture, not a matching item's target
        // or an ordering step's place; a single-choice question's editor hides the regions.
        #expect(form.contains(#"<span class="kind-field" data-kinds="hotspot"><label for="opt-shape-0">"#))
        #expect(form.contains(#"<span class="kind-field" data-kinds="matching" hidden><label for="opt-target-0">"#))
        #expect(form.contains(#"<span class="kind-field" data-kinds="ordering" hidden><label for="opt-keypos-0">"#))
        let single = try admin.request("GET", "/admin/questions/\(MiniExam.items[0].id.uuidString.lowercased())/edit").bodyText
        #expect(single.contains(#"<span class="kind-field" data-kinds="hotspot" hidden><label for="opt-shape-0">"#))
        #expect(single.contains(#"data-kinds="matching fill-in hotspot" hidden>"#), "the box of other kinds' fields is hidden whole")
        #expect(single.contains(#"<script src="/js/question-editor.js" defer></script>"#))
        // An upside-down rectangle is refused with the validator's words, and nothing is saved.
        let refused = try admin.request("POST", "/admin/questions/new", pairs: try Self.editorShowing(admin, "/admin/questions/new") + common + [
            ("type", "hotspot"), ("stem", "Click it."), ("hotspot_image", "/images/diagrams/network-a.svg"),
            ("opt_text_0", "A"), ("opt_coords_0", "50, 50, 10, 10"), ("opt_key_0", "on"), ("opt_text_1", "B"), ("opt_coords_1", "1, 1, 5, 5"),
        ])
        #expect(refused.status == 422)
        #expect(refused.bodyText.contains("option 0 has a region whose coordinates do not fit its shape"))
        #expect(try site.count("SELECT count(*) AS n FROM questions WHERE stem = 'Click it.'") == 0)
        let check = try HTMLChecker.passes([("edit hotspot", Array(form.utf8)), ("refused hotspot", refused.body)])
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }

    @Test("the dashboard pages pass the Nu Html Checker")
    func validHTML() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        var pages: [(name: String, body: [UInt8])] = []
        for (name, path) in [("overview", "/admin"), ("import", "/admin/import"), ("reports", "/admin/reports"), ("audit-empty", "/admin/audit"),
                             ("questions", "/admin/questions?type=ordering"), ("question", "/admin/questions/\(MiniExam.items[4].id.uuidString.lowercased())")] {
            pages.append((name, try admin.request("GET", path).body))
        }
        pages.append(("import-refused", try importDocument(admin, csrf: csrf, ContentDocuments.document(stem: "", passMark: 0)).body))
        pages.append(("import-done", try importDocument(admin, csrf: csrf, ContentDocuments.document(stem: "Fine?")).body))
        pages.append(("audit", try admin.request("GET", "/admin/audit").body))
        pages.append(("users", try admin.request("GET", "/admin/users").body))
        pages.append(("edit", try admin.request("GET", "/admin/questions/\(MiniExam.items[3].id.uuidString.lowercased())/edit").body))
        pages.append(("new", try admin.request("GET", "/admin/questions/new").body))
        pages.append(("edit-refused", try admin.request("POST", "/admin/questions/new", form: ["csrf_token": csrf, "stem": "", "type": "ordering"]).body))
        let check = try HTMLChecker.passes(pages)
        #expect(check.passed, "the Nu Html Checker found errors; run it on \(check.folder) to see them")
    }
    @Test("an admin finds accounts, makes a teacher, disables and enables; each change is audited and takes effect at once; nobody else can, and not on oneself")
    func accountManagement() throws {
        let site = try PortalSite()
        let (admin, csrf) = try site.signedInAdmin()
        let (pupil, pupilID, _) = try site.account("pupil", role: "student", displayName: "Paula Pupil")
        _ = try site.account("another", role: "student")
        let found = try admin.request("GET", "/admin/users?q=paula").bodyText
        #expect(found.contains("<th scope=\"row\">pupil</th>") && !found.contains("<th scope=\"row\">another</th>"), "found by display name")
        #expect(found.contains("1 account matches."))
        // A student looking for the teaching area is told how to get there; the rest of it stays unconfirmed.
        let notYet = try pupil.request("GET", "/teach")
        #expect(notYet.status == 403 && notYet.bodyText.contains("ask to teach, naming your school"), "\(notYet.bodyText.suffix(1500))")
        #expect(try pupil.request("GET", "/teach/classes/\(UUID().uuidString.lowercased())").status == 404)
        #expect(try pupil.request("GET", "/admin").status == 404)

        let made = try admin.request("POST", "/admin/users/\(pupilID.uuidString.lowercased())", form: [
            "csrf_token": csrf, "role": "teacher", "status": "active", "q": "paula", "filter_role": ""])
        #expect(made.status == 303)
        #expect(redirectLocation(made) == "/admin/users?q=paula&changed=pupil")
        #expect(try admin.request("GET", redirectLocation(made)).bodyText.contains("The account pupil is changed."))
        #expect(try pupil.request("GET", "/teach").status == 200, "the new teacher's next request already teaches")
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'account.change' AND target = 'pupil' AND actor_name = 'Chief Editor' AND details->>'role_before' = 'student' AND details->>'role' = 'teacher'") == 1)

        // Disabling asks first, on a page of its own that sends the same change with its consent.
        let asked = try admin.request("POST", "/admin/users/\(pupilID.uuidString.lowercased())", form: [
            "csrf_token": csrf, "role": "teacher", "status": "disabled", "was": "active", "username": "pupil", "q": "paula"])
        #expect(asked.status == 200 && asked.bodyText.contains("<h1>Disable pupil’s account?</h1>"), "\(asked.bodyText)")
        #expect(asked.bodyText.contains(#"<button type="submit" class="danger">Disable pupil</button>"#))
        let askedCheck = try HTMLChecker.passes([("disabling", asked.body)])
        #expect(askedCheck.passed, "the Nu Html Checker found errors; run it on \(askedCheck.folder) to see them")
        #expect(try pupil.request("GET", "/teach").status == 200, "asking disabled nothing")
        let disabled = try admin.request("POST", "/admin/users/\(pupilID.uuidString.lowercased())", form: [
            "csrf_token": csrf, "role": "teacher", "status": "disabled", "username": "pupil", "q": "paula", "confirm": "1"])
        #expect(disabled.status == 303)
        #expect(redirectLocation(try pupil.request("GET", "/me")).hasPrefix("/login"), "a disabled account's session ends at once")
        #expect(try site.count("SELECT count(*) AS n FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE u.username = 'pupil'") == 0)
        #expect(try admin.request("POST", "/admin/users/\(pupilID.uuidString.lowercased())", form: [
            "csrf_token": csrf, "role": "teacher", "status": "active"]).status == 303)
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE username = 'pupil' AND disabled_at IS NULL AND role = 'teacher'") == 1)
        #expect(try site.count("SELECT count(*) AS n FROM audit_log WHERE action = 'account.change' AND target = 'pupil'") == 3)

        // Not on one's own account; not a role that is none; not an unknown account.
        let adminID = try site.admin { try $0.query("SELECT id FROM users WHERE username = 'chief'").single().decode("id", as: UUID.self) }
        let own = try admin.request("POST", "/admin/users/\(adminID.uuidString.lowercased())", form: ["csrf_token": csrf, "role": "student", "status": "active"])
        #expect(own.status == 422 && own.bodyText.contains("You cannot change your own role"))
        #expect(try admin.request("POST", "/admin/users/\(pupilID.uuidString.lowercased())", form: ["csrf_token": csrf, "role": "owner", "status": "active"]).status == 400)
        #expect(try admin.request("POST", "/admin/users/\(UUID().uuidString)", form: ["csrf_token": csrf, "role": "student", "status": "active"]).status == 404)

        // Anyone else: the ordinary 404 over HTTP, and the database refuses the function and the columns.
        let (teacher, _, teacherCSRF) = try site.account("tutor", role: "teacher")
        #expect(try teacher.request("GET", "/admin/users").status == 404)
        #expect(try teacher.request("POST", "/admin/users/\(pupilID.uuidString.lowercased())", form: ["csrf_token": teacherCSRF, "role": "admin", "status": "active"]).status == 404)
        let tutor = try site.database.makeAccount("tutor2", role: "teacher")
        #expect(throws: PostgresError.self) {
            try site.pool.asCaller(tutor) { try $0.query("SELECT admin_set_account(\(tutor.id), 'admin', false)") }
        }
        #expect(throws: PostgresError.self, "portal_app cannot set a role itself, even on its own row") {
            try site.pool.asCaller(tutor) { try $0.execute("UPDATE users SET role = 'admin' WHERE id = \(tutor.id)") }
        }
        #expect(try site.count("SELECT count(*) AS n FROM users WHERE role = 'admin'") == 1)
    }
}
