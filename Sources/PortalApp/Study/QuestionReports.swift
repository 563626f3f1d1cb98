import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// `POST /questions/{id}/reports`: a student reports a question (a reason and a comment) for
/// the content team's review queue.
struct QuestionReports: Sendable {
    let database: ConnectionPool
    let pages: PageRenderer

    static let maximumComment = 2000

    func report(_ request: Request) throws -> Response {
        let locale = pages.locale(for: request)
        let form = FormFields(body: request.body)
        let back = LocalPath.validated(form["return_to"]) ?? "/"
        guard let user = request.user else {
            return .redirect(to: LocalPath.signIn(returningTo: back))
        }
        guard let questionID = UUID(uuidString: request.parameter("id")) else {
            throw HTTPError(.notFound, pages.message("report.no_question", locale: locale))
        }
        guard let reason = ReportReason(rawValue: form["reason"] ?? "") else {
            throw HTTPError(.badRequest, pages.message("report.bad_reason", locale: locale))
        }
        let comment = (form["comment"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard comment.count <= Self.maximumComment else {
            throw HTTPError(.badRequest, pages.message("report.too_long", locale: locale, ["max": String(Self.maximumComment)]))
        }
        let filed = try database.withRequestContext(userID: user.userID.uuidString, role: user.role) { connection in
            try StudyStore().report(questionID: questionID, reason: reason, comment: comment, connection)
        }
        guard filed else { throw HTTPError(.notFound, pages.message("report.no_question", locale: locale)) }
        return .redirect(to: back + (back.contains("?") ? "&" : "?") + "reported=1")
    }
}
