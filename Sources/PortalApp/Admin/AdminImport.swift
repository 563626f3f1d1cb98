import ExamData
import Foundation
import HTTPClient
import HTTPServer
import Identifiers
import Interop
import PostgresClient
import QuestionEngine

/// Importing a content document: the form, and what the document would add and change.
extension AdminPages {
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
        /// A checked file's page: where its import is confirmed, and that form's one-time token.
        var checkAction: String?

        /// The report of a refused file: its first problems and how many there are in all.
        mutating func refuse(_ problems: [Problem], total: Int?, fileRefused: Bool) {
            self.problems = problems
            hasProblems = true
            more = (total ?? problems.count) - problems.count
            hasMore = more > 0
            self.fileRefused = fileRefused
        }
    }

    /// Why a kept file cannot be imported now.
    enum ImportBlocked: Error {
        case refusal(ImportRefusal)
        case problems([ImportProblem])
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

    /// Why a document could not be planned, as the report lists it (at most 500 lines), and
    /// how many problems there are in all.
    private func problems(_ refusal: ImportRefusal, locale: String) -> (problems: [ImportPage.Problem], total: Int?) {
        switch refusal {
        case .unknownFormat: return ([say("admin.unknown_format", locale: locale)], nil)
        case .needsExam(let format): return ([say("admin.needs_exam", ["format": format.rawValue], locale: locale)], nil)
        case .noSuchExam(let exam): return ([say("admin.no_such_exam", ["exam": String(exam.prefix(120))], locale: locale)], nil)
        case .unsupported(let items):
            return ([say("admin.unsupported_refused", ["count": String(items.count)], count: items.count, locale: locale)]
                        + items.prefix(499).map { ImportPage.Problem(item: $0.position, field: "", problem: $0.reason) }, items.count + 1)
        case .unreadable(let format, let error): return ([ImportPage.Problem(item: error.position, field: format.rawValue, problem: error.problem)], nil)
        case .malformed(let problem): return ([ImportPage.Problem(item: problem.item, field: problem.field, problem: problem.problem)], nil)
        }
    }

    /// `POST /admin/import`: reads the file in whatever format it is (format 1, or another into
    /// the exam chosen) and checks the whole of it; a good file is kept for its dry run. The file
    /// comes as an upload or a text field.
    func importDocument(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let locale = pages.locale(for: request)
        let form = ImportForm(request)
        let (bytes, fromFile, into, domain, skipUnsupported) = (form.bytes, form.fromFile, form.into, form.domain, form.skipUnsupported)
        var page = ImportPage(exams: try examChoices(selected: into, request), domain: domain, skipUnsupported: skipUnsupported)
        func refused(_ problems: [ImportPage.Problem], total: Int? = nil) throws -> Response {
            page.refuse(problems, total: total, fileRefused: fromFile)
            page.pasted = fromFile ? "" : String(decoding: bytes, as: UTF8.self)
            return try pages.privatePage("admin/import", page, request, status: .unprocessableContent)
        }
        guard !bytes.isEmpty else { return try refused([say("admin.no_document", locale: locale)]) }
        let planned = try request.database.transaction { try ready(bytes, into: into, domain: domain, skipUnsupported: skipUnsupported, $0) }
        if case .failure(let blocked) = planned {
            let (problems, total) = lines(blocked, locale: locale)
            return try refused(problems, total: total)
        }
        // A good file is kept while the admin reads what it would do (its check's page); the
        // same form sent again leads to the same check.
        let location = try SentOnce.send(request, token: form.sentOnceToken) { connection -> String in
            let id = try ImportCheckStore().keep(document: bytes, into: into, domain: domain, skipUnsupported: skipUnsupported, at: clock(), connection)
            return "/admin/import/\(id.uuidString.lowercased())"
        }?.location
        guard let location else { return try refused([say("error.form_resent", locale: locale)]) }
        return .redirect(to: location)
    }

    /// `GET /admin/import/{id}`: the dry run of a kept file — what it would add, change and leave
    /// as it is, by exam and key, tried in a transaction and undone — and the choice to import it
    /// as drafts (the default) or published. A file the catalogue no longer takes (its exam
    /// gone, a key taken meanwhile) is refused as at first.
    func importCheck(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        guard let check = try request.database.run({ try ImportCheckStore().check(id, $0) }) else { throw PageRefusal(.notFound, "admin.import_check_gone") }
        var page = ImportPage(exams: try examChoices(selected: check.into, request), domain: check.domain, skipUnsupported: check.skipUnsupported)
        let importer = ContentImport()
        let outcome = try request.database.transaction { connection -> Result<(ImportPlan, ImportSummary), ImportBlocked> in
            switch try ready(check.document, into: check.into, domain: check.domain, skipUnsupported: check.skipUnsupported, connection) {
            case .failure(let blocked): return .failure(blocked)
            case .success(let plan):
                try importer.allowLongStatements(connection)
                return .success((plan, try importer.dryRun(plan.document, connection)))
            }
        }
        switch outcome {
        case .failure(let blocked):
            let (problems, total) = lines(blocked, locale: locale)
            page.refuse(problems, total: total, fileRefused: true)
            return try pages.privatePage("admin/import", page, request, status: .unprocessableContent)
        case .success(let (plan, summary)):
            report(summary, plan, on: &page, locale: locale)
            page.checkAction = "/admin/import/\(id.uuidString.lowercased())"
            return try pages.privatePage("admin/import", page, request)
        }
    }

    /// `POST /admin/import/{id}`: imports the checked file — its new questions as drafts, or
    /// everything published — in one transaction with its audit entry, then lists the drafts to
    /// review. Once per showing of the check.
    func importChecked(_ request: PortalRequest, _ user: SessionUser, id: UUID) throws -> Response {
        let fields = request.formFields
        let drafts = fields["publish"] != "1"
        let importer = ContentImport()
        let location = try SentOnce.send(request, form: fields) { connection -> String in
            guard let check = try ImportCheckStore().check(id, connection) else { throw PageRefusal(.notFound, "admin.import_check_gone") }
            guard case .success(let plan) = try ready(check.document, into: check.into, domain: check.domain, skipUnsupported: check.skipUnsupported, connection)
            else { throw PageRefusal(.conflict, "admin.import_changed_since") }
            try importer.allowLongStatements(connection)
            let summary = try importer.apply(plan.document, drafts: drafts, connection)
            try AdminStore().audit(
                actorName: user.displayName, action: "content.import", target: plan.document.regions.map(\.code).joined(separator: ","),
                details: ["added": String(summary.questionsAdded), "changed": String(summary.questionsChanged),
                          "unchanged": String(summary.questionsUnchanged), "bytes": String(check.document.count), "format": plan.format.rawValue,
                          "skipped": String(plan.skipped.count), "drafts": drafts ? "yes" : "no"], at: clock(), connection)
            try ImportCheckStore().remove(id, connection)
            // The list of what came in: the drafts (of its exam, when the file went into one).
            let exams = plan.document.regions.flatMap { region in region.exams.map { "\(region.code)/\($0.slug)" } }
            let exam = exams.count == 1 ? "&exam=" + LocalPath.escaped(exams[0]) : ""
            return (drafts ? "/admin/questions?status=draft&imported=" : "/admin/questions?imported=") + "\(summary.questionsAdded)" + exam
        }?.location
        return .redirect(to: location ?? "/admin/import/\(id.uuidString.lowercased())")
    }

    /// A file read for an import and checked whole (format 1's blueprint too): the plan to
    /// write, or why it cannot be — the one check of the form, of its dry run and of the import.
    private func ready(
        _ bytes: [UInt8], into: String, domain: String, skipUnsupported: Bool, _ connection: PostgresConnection
    ) throws -> Result<ImportPlan, ImportBlocked> {
        let plan: ImportPlan
        do {
            plan = try ImportPlanner().plan(Data(bytes), into: into, domain: domain, skipUnsupported: skipUnsupported, connection)
        } catch let refusal as ImportRefusal {
            return .failure(.refusal(refusal))
        }
        let problems = ContentImport().problems(plan.document, blueprint: plan.format == .portalJSON)
        return problems.isEmpty ? .success(plan) : .failure(.problems(problems))
    }

    /// Why a file cannot be imported, as the report lists it (at most 500 lines), and how many
    /// problems there are in all.
    private func lines(_ blocked: ImportBlocked, locale: String) -> (problems: [ImportPage.Problem], total: Int?) {
        switch blocked {
        case .refusal(let refusal): problems(refusal, locale: locale)
        case .problems(let found): (found.prefix(500).map { ImportPage.Problem(item: $0.item, field: $0.field, problem: $0.problem) }, found.count)
        }
    }

    /// A line of the report in the reader's words.
    private func say(_ key: String, _ arguments: [String: String] = [:], count: Int? = nil, locale: String) -> ImportPage.Problem {
        ImportPage.Problem(item: "", field: "", problem: pages.message(key, locale: locale, arguments, count: count.map(Double.init)))
    }

    /// What an import did, on its report page: the counts, each exam's added and changed keys,
    /// the format read, what was skipped and noted.
    private func report(_ summary: ImportSummary, _ plan: ImportPlan, on page: inout ImportPage, locale: String) {
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
    }

    /// Keys for the import report: the first 30, then how many more.
    static func keyList(_ keys: [String]) -> String {
        keys.prefix(30).joined(separator: ", ") + (keys.count > 30 ? ", … (+\(keys.count - 30))" : "")
    }
}
