import ExamData
import Foundation
import HTTPClient
import HTTPServer
import Identifiers
import Interop
import PostgresClient
import QuestionEngine

/// `/admin`: the content dashboard, for admins only. Everyone else gets the ordinary 404 on
/// every URL under it, so the area is not even confirmed to exist. Every change is written to
/// the audit log in the same transaction as the change itself.
struct AdminPages: Sendable {
    let pages: PageRenderer
    let clock: @Sendable () -> Date
    /// Where the site's own pictures are, for the exports that carry their pictures.
    let publicDirectory: String
    /// This site's addresses (the LTI page shows the tool's endpoints).
    let site: SiteAddress
    /// Outbound requests (an identity provider's discovery document).
    let outbound: HTTPClient
    /// The portal sends mail: the overview says how the outbox stands.
    var mailEnabled = false

    /// Imports up to 20 MiB (a whole exam of thousands of questions), plus the form around it.
    static let importLimit = 21 * 1024 * 1024
    /// The editor's form: its texts and one picture or recording being added.
    static let editorLimit = ContentImage.maximumMediaBytes + 512 * 1024

    func editor(_ request: PortalRequest, _ user: SessionUser, id: UUID?) throws -> Response {
        let locale = pages.locale(for: request)
        let (form, domains) = try request.database.transaction { connection -> (QuestionForm, [(id: Int, label: String)]) in
            let editor = QuestionEditor()
            let domains = try editor.domains(connection)
            guard let id else {
                let blank = EditableQuestion(
                    id: nil, domainID: domains.first?.id ?? 0, type: .singleChoice, stem: "", code: nil, codeLanguage: nil, options: [], correct: [],
                    explanation: "", difficulty: 3, status: "draft", version: 0)
                return (QuestionForm(blank), domains)
            }
            guard let question = try editor.question(id: id, connection) else { throw HTTPError(.notFound, pages.message("school.not_found", locale: locale)) }
            return (QuestionForm(question), domains)
        }
        return try pages.privatePage("admin/edit", QuestionEditPage(form, domains: domains, pages: pages, locale: locale), request)
    }

    /// Checks the form by the shared rules and shows what is wrong beside each field; saves
    /// (a new version when anything changed) with its audit entry in one transaction.
    func saveQuestion(_ request: PortalRequest, _ user: SessionUser, id: UUID?) throws -> Response {
        let locale = pages.locale(for: request)
        // The form comes as multipart when it carries a picture to add to the question's text.
        var fields = FormFields(body: request.body), upload: MultipartPart?
        if let type = request.headers["Content-Type"], type.lowercased().hasPrefix("multipart/form-data") {
            let parts = try Multipart.parse(body: request.body, contentType: type)
            fields = FormFields(fields: parts.filter { $0.name != "picture" }.map { ($0.name, String(decoding: $0.data, as: UTF8.self)) })
            upload = parts.first { $0.name == "picture" && $0.filename != nil && !$0.data.isEmpty }
        }
        let form = QuestionForm(form: fields, id: id, version: Int(fields["version"] ?? "") ?? 0) { pages.message($0, locale: locale, $1) }
        do {
            let result = try request.database.transaction { connection -> Response in
                let editor = QuestionEditor()
                let domains = try editor.domains(connection)
                var form = form
                if !domains.contains(where: { $0.id == form.question.domainID }) { form.errors["domain"] = pages.message("admin.edit.bad_domain", locale: locale) }
                if let id, try editor.question(id: id, connection) == nil { throw HTTPError(.notFound, pages.message("school.not_found", locale: locale)) }
                if form.addsRow {
                    // Only a row more: nothing is checked or saved until "save".
                    form.errors = [:]
                    return try pages.privatePage("admin/edit", QuestionEditPage(form, domains: domains, pages: pages, locale: locale), request)
                }
                if fields["add_picture"] != nil {
                    // A picture stored and written into the question's text as markdown; the question is saved with "save".
                    form.errors = [:]
                    let alt = (fields["picture_alt"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                    var added: ContentImage?
                    if let upload {
                        do throws(ImageRefusal) { added = try ContentImage(bytes: upload.data) } catch {
                            form.errors["picture"] = switch error {
                            case .notAnImage: pages.message("admin.edit.picture_not_image", locale: locale)
                            case .tooLarge(let size):
                                pages.message("admin.edit.picture_too_large", locale: locale, ["size": String(size / 1024), "limit": String(ContentImage.maximumBytes / 1024 / 1024)])
                            case .tooManyPixels(let size): pages.message("admin.edit.picture_too_many_pixels", locale: locale, ["size": "\(size)"])
                            case .empty, .sizeUnreadable: pages.message("admin.edit.picture_unreadable", locale: locale)
                            }
                        }
                    } else {
                        form.errors["picture"] = pages.message("admin.edit.picture_missing", locale: locale)
                    }
                    if alt.isEmpty, form.errors["picture"] == nil { form.errors["picture"] = pages.message("admin.edit.picture_no_alt", locale: locale) }
                    var page = QuestionEditPage(form, domains: domains, pages: pages, locale: locale)
                    guard let added, form.errors.isEmpty else {
                        page.pictureAlt = alt
                        return try pages.privatePage("admin/edit", page, request, status: .unprocessableContent)
                    }
                    _ = try ContentImageStore().save([added], connection)
                    let written = MarkdownWriter.write(RichText([.picture(RichText.Picture(source: added.path, alt: alt))]))
                    page.stem = page.stem.isEmpty ? written : page.stem + "\n\n" + written
                    page.markdown = true
                    page.pictureAdded = pages.message("admin.edit.picture_added", locale: locale)
                    return try pages.privatePage("admin/edit", page, request)
                }
                guard form.errors.isEmpty else {
                    return try pages.privatePage("admin/edit", QuestionEditPage(form, domains: domains, pages: pages, locale: locale), request, status: .unprocessableContent)
                }
                if fields["preview"] != nil {
                    // The question as students would see it, beside the form; nothing is saved.
                    var page = QuestionEditPage(form, domains: domains, pages: pages, locale: locale)
                    page.preview = try? QuestionPreview(form.question.shown())
                    return try pages.privatePage("admin/edit", page, request)
                }
                // Saved once per showing of the form: sent again, it leads to what the first saved.
                let location = try SentOnce.send(request, form: fields) { connection -> String in
                    guard let saved = try editor.save(form.question, connection) else {
                        throw SavedSince(shown: form.question.version, version: try editor.question(id: id ?? UUID(), connection)?.version ?? form.question.version)
                    }
                    try AdminStore().audit(
                        actorName: user.displayName, action: id == nil ? "question.create" : "question.edit", target: saved.id.lowercasedText,
                        details: ["version": String(saved.version), "status": form.question.status], at: clock(), connection)
                    return "/admin/questions/\(saved.id.lowercasedText)?saved=1"
                }?.location
                guard let location else {
                    var page = QuestionEditPage(form, domains: domains, pages: pages, locale: locale)
                    page.savedSince = pages.message("error.form_resent", locale: locale)
                    return try pages.privatePage("admin/edit", page, request, status: .conflict)
                }
                return .redirect(to: location)
            }
            return result
        } catch let since as SavedSince {
            // Another admin saved the question after this form was shown: nothing is overwritten.
            // The edits come back with the newer version, so saving again is a choice made knowingly.
            var form = form
            form.question.version = since.version
            let (domains, versions) = try request.database.run { connection in
                (try QuestionEditor().domains(connection), try id.map { try AdminStore().versions(questionID: $0, connection) } ?? [])
            }
            var page = QuestionEditPage(form, domains: domains, pages: pages, locale: locale)
            page.savedSince = pages.message("admin.edit.saved_since", locale: locale, ["version": String(since.version)])
            // What the other save changed: the version this form was opened on against the current one.
            if let shown = versions.first(where: { $0.version == since.shown }), let current = versions.first(where: { $0.version == since.version }) {
                page.changedSince = LineDiff.changes(shown.snapshot, current.snapshot) ?? []
                page.hasChangedSince = !page.changedSince.isEmpty
            }
            return try pages.privatePage("admin/edit", page, request, status: .conflict)
        }
    }

    /// The question was saved by someone else since the form was shown (at version `shown`;
    /// now at `version`).
    private struct SavedSince: Error {
        var shown: Int
        var version: Int
    }

    func overview(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let locale = pages.locale(for: request)
        let (exams, flagged, outbox) = try request.database.transaction { connection -> ([ExamOverview], [Int: Int], MailOutbox.Summary?) in
            var flagged: [Int: Int] = [:]
            for (examID, _) in try flaggedQuestions(connection) { flagged[examID, default: 0] += 1 }
            return (try AdminStore().overview(connection), flagged, mailEnabled ? try MailOutbox().summary(connection) : nil)
        }
        struct Page: Encodable {
            struct Exam: Encodable {
                var title: String
                var language: String
                var exportHref: String
                var moodleHref: String
                var qtiHref: String
                var qti21Href: String
                /// The exam's questions, and those of them that need review, in the question list.
                var questionsHref: String
                var flaggedHref: String
                var updated: String
                var statuses: String
                var types: String
                var difficulties: [Int]
                var openReports: Int
                var flagged: Int
                var hasFlagged: Bool
            }
            var exams: [Exam]
            /// The mail outbox: waiting, sent and given up (30 days), the latest failure.
            struct Mail: Encodable {
                var waiting: Int
                var sent: Int
                var givenUp: Int
                var oldestWaiting: String?
                var lastError: String?
                var lastErrorAgo: String?
            }
            var mail: Mail?
        }
        var value = Page(exams: exams.map { exam in
            Page.Exam(
                title: exam.title, language: exam.language, exportHref: "/admin/exams/\(exam.regionCode)/\(exam.slug)/export.json",
                moodleHref: "/admin/exams/\(exam.regionCode)/\(exam.slug)/export.moodle.xml",
                qtiHref: "/admin/exams/\(exam.regionCode)/\(exam.slug)/export.qti.zip",
                qti21Href: "/admin/exams/\(exam.regionCode)/\(exam.slug)/export.qti21.zip",
                questionsHref: "/admin/questions?exam=\(exam.regionCode)/\(exam.slug)",
                flaggedHref: "/admin/questions?exam=\(exam.regionCode)/\(exam.slug)&flagged=on",
                updated: pages.ago(exam.contentUpdatedAt, locale: locale),
                statuses: exam.byStatus.sorted { $0.key < $1.key }.map { pages.message("admin.state." + $0.key, locale: locale) + " \($0.value)" }
                    .joined(separator: " · "),
                types: exam.byType.sorted { $0.key < $1.key }.map { pages.message("admin.kind." + $0.key, locale: locale) + " \($0.value)" }
                    .joined(separator: " · "),
                difficulties: exam.byDifficulty, openReports: exam.openReports, flagged: flagged[exam.examID] ?? 0,
                hasFlagged: (flagged[exam.examID] ?? 0) > 0)
        })
        value.mail = outbox.map {
            Page.Mail(
                waiting: $0.waiting, sent: $0.sent, givenUp: $0.givenUp, oldestWaiting: $0.oldestWaiting.map { pages.ago($0, locale: locale) },
                lastError: $0.lastError, lastErrorAgo: $0.lastErrorAt.map { pages.ago($0, locale: locale) })
        }
        return try pages.privatePage("admin/overview", value, request)
    }

    /// The questions that need review, with their exam ids: by their statistics where they have
    /// first attempts, and by their writing in any case.
    private func flaggedQuestions(_ connection: PostgresConnection) throws -> [(examID: Int, id: UUID)] {
        let store = AdminStore()
        let questions = try store.reviewableQuestions(connection)
        let statistics = try store.itemStatistics(questionIDs: questions.map(\.question.id), connection)
        return questions.filter { _, question in
            !ItemReview.flags(statistics[question.id], kind: question.kind, key: question.correct, optionTexts: question.options.map(\.text)).isEmpty
        }.map { ($0.examID, $0.question.id) }
    }

    struct ImportPage: Encodable {
        struct Problem: Encodable {
            var item: String
            var field: String
            var problem: String
        }
        struct ExamChoice: Encodable {
            var value: String
            var label: String
            var selected: Bool
        }
        /// The form's one-time token: a file is imported once per showing of the form.
        var formToken = SentOnce.newToken()
        var problems: [Problem] = []
        var hasProblems = false
        var more = 0
        var hasMore = false
        var summary: [String: Int]?
        /// "Read as GIFT.", after an import.
        var formatRead: String?
        /// Pictures the import stored that were not stored before (nil when none were).
        var picturesStored: Int?
        /// Per exam written to, the questions added and changed, by key.
        var changes: [ExamChanges] = []
        var hasChanges = false
        /// Counts are nil when none.
        struct ExamChanges: Encodable {
            var exam: String
            var title: String
            var added: Int?
            var addedKeys: String
            var changed: Int?
            var changedKeys: String
        }
        /// Items a foreign file had that the portal has no kind for, left out on request.
        var skipped: [String] = []
        var hasSkipped = false
        /// What was changed to keep a question (a part-mark answer counted wrong, a name told apart).
        var notes: [String] = []
        var hasNotes = false
        /// The document pasted into the text field, put back after a refusal so it can be fixed
        /// in place (a chosen file cannot be put back: the page asks for it again).
        var pasted = ""
        var fileRefused = false
        /// The exams a GIFT or Aiken file may go into; the domain and the skipping choice as sent.
        var exams: [ExamChoice] = []
        var domain = ""
        var skipUnsupported = false
    }

    /// The exams an import may go into, `region/slug` and "Region · Title".
    private func examChoices(selected: String, _ request: PortalRequest) throws -> [ImportPage.ExamChoice] {
        try request.database.run { try ExamCatalog().regions($0) }.flatMap { region in
            region.exams.map { ImportPage.ExamChoice(value: "\(region.code)/\($0.slug)", label: "\(region.name) · \($0.title)", selected: "\(region.code)/\($0.slug)" == selected) }
        }
    }

    func importForm(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        return try pages.privatePage("admin/import", ImportPage(exams: try examChoices(selected: "", request)), request)
    }

    /// Reads the file in whatever format it is (format 1, or GIFT or Aiken into the exam
    /// chosen), validates the whole of it first, and imports only when everything is valid, in
    /// one transaction with its audit entry. The file comes as an upload or a text field.
    func importDocument(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let locale = pages.locale(for: request)
        var bytes: [UInt8] = [], fromFile = false
        var fields: [String: String] = [:]
        if let type = request.headers["Content-Type"], type.lowercased().hasPrefix("multipart/form-data") {
            let parts = (try? Multipart.parse(body: request.body, contentType: type)) ?? []
            for part in parts where part.name != "file" && part.name != "document" { fields[part.name] = String(decoding: part.data, as: UTF8.self) }
            if let file = parts.first(where: { $0.name == "file" && !$0.data.isEmpty }) {
                (bytes, fromFile) = (file.data, true)
            } else if let pasted = parts.first(where: { $0.name == "document" && !$0.data.isEmpty }) {
                bytes = pasted.data
            }
        } else {
            let form = FormFields(body: request.body)
            bytes = Array((form["document"] ?? "").utf8)
            for name in ["into", "domain", "skip_unsupported", SentOnce.field] { fields[name] = form[name] }
        }
        let into = fields["into"] ?? "", domain = (fields["domain"] ?? "").trimmingCharacters(in: .whitespaces)
        let skipUnsupported = fields["skip_unsupported"] == "on"
        var page = ImportPage(exams: try examChoices(selected: into, request), domain: domain, skipUnsupported: skipUnsupported)
        func refused(_ problems: [ImportPage.Problem], total: Int? = nil) throws -> Response {
            let total = total ?? problems.count
            page.problems = problems
            page.hasProblems = true
            page.more = total - problems.count
            page.hasMore = total > problems.count
            page.pasted = fromFile ? "" : String(decoding: bytes, as: UTF8.self)
            page.fileRefused = fromFile
            return try pages.privatePage("admin/import", page, request, status: .unprocessableContent)
        }
        func say(_ key: String, _ arguments: [String: String] = [:], count: Int? = nil) -> ImportPage.Problem {
            ImportPage.Problem(item: "", field: "", problem: pages.message(key, locale: locale, arguments, count: count.map(Double.init)))
        }
        guard !bytes.isEmpty else { return try refused([say("admin.no_document")]) }
        let importer = ContentImport()
        let plan: ImportPlan
        do {
            plan = try request.database.transaction { try ImportPlanner().plan(Data(bytes), into: into, domain: domain, skipUnsupported: skipUnsupported, $0) }
        } catch let refusal as ImportRefusal {
            switch refusal {
            case .unknownFormat: return try refused([say("admin.unknown_format")])
            case .needsExam(let format): return try refused([say("admin.needs_exam", ["format": format.rawValue])])
            case .noSuchExam(let exam): return try refused([say("admin.no_such_exam", ["exam": String(exam.prefix(120))])])
            case .unsupported(let items):
                return try refused(
                    [say("admin.unsupported_refused", ["count": String(items.count)], count: items.count)]
                        + items.prefix(499).map { ImportPage.Problem(item: $0.position, field: "", problem: $0.reason) }, total: items.count + 1)
            case .unreadable(let format, let error): return try refused([ImportPage.Problem(item: error.position, field: format.rawValue, problem: error.problem)])
            case .malformed(let problem): return try refused([ImportPage.Problem(item: problem.item, field: problem.field, problem: problem.problem)])
            }
        }
        let document = plan.document
        let problems = importer.problems(document)
        guard problems.isEmpty else {
            return try refused(problems.prefix(500).map { ImportPage.Problem(item: $0.item, field: $0.field, problem: $0.problem) }, total: problems.count)
        }
        // Imported once per showing of the form: the same form sent again (a reload of this
        // report, a double tap) imports nothing more and leads to the question list.
        var imported: ImportSummary?
        let location = try SentOnce.send(request, token: fields[SentOnce.field]) { connection -> String in
            try importer.allowLongStatements(connection)
            let summary = try importer.apply(document, connection)
            try AdminStore().audit(
                actorName: user.displayName, action: "content.import", target: document.regions.map(\.code).joined(separator: ","),
                details: ["added": String(summary.questionsAdded), "changed": String(summary.questionsChanged),
                          "unchanged": String(summary.questionsUnchanged), "bytes": String(bytes.count), "format": plan.format.rawValue,
                          "skipped": String(plan.skipped.count)], at: clock(), connection)
            imported = summary
            return "/admin/questions"
        }?.location
        guard let summary = imported else {
            if let location { return .redirect(to: location) }
            page.pasted = fromFile ? "" : String(decoding: bytes, as: UTF8.self)
            return try refused([say("error.form_resent")])
        }
        page.summary = [
            "regions": summary.regions, "exams": summary.exams, "domains": summary.domains, "added": summary.questionsAdded,
            "changed": summary.questionsChanged, "unchanged": summary.questionsUnchanged,
        ]
        page.picturesStored = summary.imagesAdded > 0 ? summary.imagesAdded : nil
        page.changes = summary.changes.map {
            ImportPage.ExamChanges(
                exam: $0.exam, title: $0.title, added: $0.added.isEmpty ? nil : $0.added.count, addedKeys: Self.keyList($0.added),
                changed: $0.changed.isEmpty ? nil : $0.changed.count, changedKeys: Self.keyList($0.changed))
        }
        page.hasChanges = !page.changes.isEmpty
        page.formatRead = pages.message("admin.format_read", locale: locale, ["format": plan.format.rawValue])
        page.skipped = plan.skipped.map(\.description)
        page.hasSkipped = !plan.skipped.isEmpty
        page.notes = plan.notes.map(\.description)
        page.hasNotes = !plan.notes.isEmpty
        return try pages.privatePage("admin/import", page, request)
    }

    /// Keys for the import report: the first 30, then how many more.
    static func keyList(_ keys: [String]) -> String {
        keys.prefix(30).joined(separator: ", ") + (keys.count > 30 ? ", … (+\(keys.count - 30))" : "")
    }

    /// The exam's published questions as a QTI 3.0 or 2.1 content package (`QTIPackage`).
    func exportQTI(_ request: PortalRequest, _ user: SessionUser, exam: ExamAddress, version3: Bool) throws -> Response {
        try download(request, exam, type: "application/zip", suffix: version3 ? "qti.zip" : "qti21.zip") { QTIPackage.archive(SiteImages(publicDirectory: publicDirectory).including($0), version3: version3) }
    }

    /// The exam as Moodle XML (`MoodleXMLExport`), for a school's Moodle question bank.
    func exportMoodle(_ request: PortalRequest, _ user: SessionUser, exam: ExamAddress) throws -> Response {
        try download(request, exam, type: "application/xml; charset=utf-8", suffix: "moodle.xml") { Array(MoodleXMLExport.document(SiteImages(publicDirectory: publicDirectory).including($0)).utf8) }
    }

    /// The exam in the import format (format 1).
    func export(_ request: PortalRequest, _ user: SessionUser, exam: ExamAddress) throws -> Response {
        try download(request, exam, type: "application/json", suffix: "json") { document in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return Array(try encoder.encode(document))
        }
    }

    /// The exam at `exam`, written by `write`, as an attachment named `region-exam.suffix` (404
    /// for an exam there is not).
    private func download(
        _ request: PortalRequest, _ exam: ExamAddress, type: String, suffix: String, _ write: (ContentDocument) throws -> [UInt8]
    ) throws -> Response {
        let region = exam.region, slug = exam.slug
        guard let document = try request.database.transaction({ try ContentImport().export(region: region, exam: slug, $0) }) else {
            throw HTTPError(.notFound, pages.message("error.no_exam", locale: pages.locale(for: request), ["exam": String(slug.prefix(80)), "region": String(region.prefix(40))]))
        }
        var response = Response(status: .ok, headers: ["Content-Type": type], body: .bytes(try write(document)))
        response.headers.add("Content-Disposition", "attachment; filename=\"\(region)-\(slug).\(suffix)\"")
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    func reports(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let locale = pages.locale(for: request)
        let open = try request.database.transaction { try AdminStore().openReports(limit: 200, $0) }
        struct Page: Encodable {
            struct Report: Encodable {
                var id: String
                var questionID: String
                var stem: String
                var exam: String
                var reason: String
                var comment: String
                var reporter: String
                var reportedAgo: String
            }
            var reports: [Report]
            var hasReports: Bool
            var done: Bool
        }
        let value = Page(reports: open.map { report in
            Page.Report(
                id: report.id.lowercasedText, questionID: report.questionID.lowercasedText, stem: String(report.stem.prefix(300)), exam: report.examTitle,
                reason: pages.message("report.reason.\(report.reason)", locale: locale), comment: report.comment, reporter: report.reporter,
                reportedAgo: pages.ago(report.createdAt, locale: locale))
        }, hasReports: !open.isEmpty, done: request.query["done"] != nil)
        return try pages.privatePage("admin/reports", value, request)
    }

    func resolve(_ request: PortalRequest, _ user: SessionUser, report id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let form = FormFields(body: request.body)
        guard let resolution = form["resolution"], resolution == "fixed" || resolution == "dismissed" else {
            throw HTTPError(.badRequest, pages.message("admin.bad_resolution", locale: locale))
        }
        let note = (form["note"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard note.count <= 2000 else { throw HTTPError(.badRequest, pages.message("report.too_long", locale: locale, ["max": "2000"])) }
        try request.database.transaction { connection in
            guard try AdminStore().resolveReport(id: id, resolution: resolution, note: note, at: clock(), connection) else {
                throw HTTPError(.notFound, pages.message("admin.report_gone", locale: locale))
            }
            try AdminStore().audit(
                actorName: user.displayName, action: "report.\(resolution)", target: id.lowercasedText, details: ["note": note], at: clock(), connection)
        }
        return .redirect(to: "/admin/reports?done=1")
    }

    func questionList(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let locale = pages.locale(for: request)
        let query = request.query
        func text(_ name: String) -> String? { query[name].flatMap { $0.isEmpty ? nil : String($0.prefix(200)) } }
        guard let pageNumber = Int(query["page"] ?? "1"), (1...100_000).contains(pageNumber) else {
            throw HTTPError(.badRequest, pages.message("leaderboard.bad_page", locale: locale, ["value": String((query["page"] ?? "").prefix(20))]))
        }
        var difficulty: Int?
        if let value = text("difficulty") {
            guard let level = Int(value), (1...5).contains(level) else {
                throw HTTPError(.badRequest, pages.message("error.bad_difficulty", locale: locale, ["value": String(value.prefix(20))]))
            }
            difficulty = level
        }
        let examKey = text("exam")
        let (exams, result) = try request.database.transaction { connection -> ([RegionSummary], (items: [QuestionListItem], total: Int)) in
            var examID: Int?
            if let examKey {
                let parts = examKey.split(separator: "/", maxSplits: 1).map(String.init)
                examID = parts.count == 2 ? try ExamCatalog().examHeading(region: parts[0], slug: parts[1], connection)?.id : nil
                if examID == nil { throw HTTPError(.badRequest, pages.message("live.bad_exam", locale: locale)) }
            }
            let filter = QuestionFilter(
                examID: examID, domain: text("domain"), type: text("type"), difficulty: difficulty, status: text("status"), text: text("q"),
                only: query["flagged"] == "on" ? try flaggedQuestions(connection).map(\.id) : nil)
            return (try ExamCatalog().regions(connection), try AdminStore().questions(filter, offset: (pageNumber - 1) * 50, limit: 50, connection))
        }
        let value = AdminQuestionList(
            regions: exams, selectedExam: examKey ?? "", query: query, items: result.items, total: result.total, page: pageNumber, pages: pages,
            locale: locale)
        return try pages.privatePage("admin/questions", value, request)
    }

    func question(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let value = try request.database.transaction { connection -> AdminQuestionPage in
            guard let question = try StudyStore().questions(ids: [id], connection).first else {
                throw HTTPError(.notFound, pages.message("school.not_found", locale: locale))
            }
            let store = AdminStore()
            var value = AdminQuestionPage(
                question: question, versions: try store.versions(questionID: id, connection), reports: try store.reports(questionID: id, connection),
                statistics: try store.itemStatistics(questionIDs: [id], connection)[id], language: "", pages: pages, locale: locale)
            value.saved = request.query["saved"] != nil
            return value
        }
        return try pages.privatePage("admin/question", value, request)
    }

    func audit(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let query = request.query
        let action = query["action"].flatMap { $0.isEmpty ? nil : String($0.prefix(60)) }
        guard let pageNumber = Int(query["page"] ?? "1"), (1...10_000).contains(pageNumber) else {
            throw HTTPError(.badRequest, pages.message("leaderboard.bad_page", locale: pages.locale(for: request), ["value": String((query["page"] ?? "").prefix(20))]))
        }
        let (entries, context) = try request.database.transaction { connection -> ([AuditEntry], AuditContext) in
            let entries = try AdminStore().auditEntries(action: action, offset: (pageNumber - 1) * 50, limit: 51, connection)
            return (entries, try AuditContext.read(for: Array(entries.prefix(50)), connection))
        }
        struct Page: Encodable {
            struct Entry: Encodable {
                var at: String
                var when: String
                /// What happened, in words.
                var sentence: String
                /// The question the entry is about, for a link to it.
                var questionHref: String?
                /// A question saved again: its lines that changed.
                var changes: [LineDiff.Line]
                var hasChanges: Bool
                var action: String
                var target: String
                var details: String
            }
            var entries: [Entry]
            var hasEntries: Bool
            var action: String
            var nextHref: String?
            var previousHref: String?
        }
        let iso = ISO8601DateFormatter(), locale = pages.locale(for: request), zone = TimeZone(identifier: user.timeZone) ?? .gmt
        let filter = action.map { "action=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&" } ?? ""
        let value = Page(
            entries: entries.prefix(50).map { entry in
                let isQuestion = entry.action.hasPrefix("question.") && UUID(uuidString: entry.target) != nil
                let version = AuditDetails(entry.details)["version"].flatMap(Int.init)
                let change = version.flatMap { context.changes[AuditContext.changeKey(question: entry.target, version: $0)] }
                let changes = change.flatMap { change in change.before.flatMap { LineDiff.changes($0, change.after) } } ?? []
                return Page.Entry(
                    at: iso.string(from: entry.at), when: LocalDates.dateTime(entry.at, locale: locale, zone: zone),
                    sentence: AuditSentence.text(entry, stems: context.stems, pages: pages, locale: locale),
                    questionHref: isQuestion ? "/admin/questions/\(entry.target)" : nil,
                    changes: changes, hasChanges: !changes.isEmpty,
                    action: entry.action, target: entry.target, details: entry.details)
            },
            hasEntries: !entries.isEmpty, action: action ?? "",
            nextHref: entries.count > 50 ? "/admin/audit?\(filter)page=\(pageNumber + 1)" : nil,
            previousHref: pageNumber > 1 ? "/admin/audit?\(filter)page=\(pageNumber - 1)" : nil)
        return try pages.privatePage("admin/audit", value, request)
    }
}
