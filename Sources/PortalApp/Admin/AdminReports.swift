import ExamData
import Foundation
import HTTPClient
import HTTPServer
import Identifiers
import Interop
import PostgresClient
import QuestionEngine

/// Students' reports on questions: the queue, and closing one with what was done.
extension AdminPages {
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

    /// How an admin closes a report: fixed or dismissed, with a note for the audit log.
    struct Resolution: PostedForm {
        let resolution: String
        let note: String

        init(_ form: FormReader) throws(PageRefusal) {
            resolution = form.text("resolution")
            guard resolution == "fixed" || resolution == "dismissed" else { throw PageRefusal(.badRequest, "admin.bad_resolution") }
            note = form.trimmed("note")
            guard note.count <= 2000 else { throw PageRefusal(.badRequest, "report.too_long", ["max": "2000"]) }
        }
    }

    func resolve(_ request: PortalRequest, _ user: SessionUser, report id: UUID) throws -> Response {
        let form = try request.form(Resolution.self)
        let (resolution, note) = (form.resolution, form.note)
        try request.database.transaction { connection in
            guard try AdminStore().resolveReport(id: id, resolution: resolution, note: note, at: clock(), connection) else {
                throw PageRefusal(.notFound, "admin.report_gone")
            }
            try AdminStore().audit(
                actorName: user.displayName, action: "report.\(resolution)", target: id.lowercasedText, details: ["note": note], at: clock(), connection)
        }
        return .redirect(to: "/admin/reports?done=1")
    }
}
