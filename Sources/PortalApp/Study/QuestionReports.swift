import ExamData
import Foundation
import HTTPServer

/// `POST /questions/{id}/reports`: a student reports a question (a reason and a comment) for
/// the content team's review queue.
struct QuestionReports: Sendable {
    let pages: PageRenderer

    static let maximumComment = 2000
    /// Reports per student per hour: plenty for real problems, too few to flood the queue.
    static let reportsPerHour = 30

    /// What the report form sends: the reason, a comment and the page to come back to.
    struct Report: PostedForm {
        let fields: FormFields
        let back: String
        let reason: ReportReason
        let comment: String

        init(_ form: FormReader) throws(PageRefusal) {
            fields = form.fields
            back = LocalPath.validated(form.optional("return_to")) ?? "/"
            guard let reason = ReportReason(rawValue: form.text("reason")) else { throw PageRefusal(.badRequest, "report.bad_reason") }
            self.reason = reason
            comment = form.trimmed("comment")
            guard comment.count <= QuestionReports.maximumComment else {
                throw PageRefusal(.badRequest, "report.too_long", ["max": String(QuestionReports.maximumComment)])
            }
        }
    }

    func report(_ request: PortalRequest, _ user: SessionUser, question questionID: UUID) throws -> Response {
        let form = try request.form(Report.self)
        let (back, reason, comment) = (form.back, form.reason, form.comment)
        let wait = try request.database.run {
            try AccountStore().rateLimit("report", key: user.userID.uuidString, limit: Self.reportsPerHour, window: 3600, take: true, $0)
        }
        if wait > 0 {
            throw PageRefusal.tooMany("report.throttled", ["minutes": String((wait + 59) / 60)], retryAfter: wait)
        }
        // The form is on kept pages (question and results): the same report sent again within
        // ten minutes — a double tap, a reload — is the one already filed.
        let location = try SentOnce.sendByContent(request, form: form.fields, freshFor: 600) { connection -> String in
            guard try StudyStore().report(questionID: questionID, reason: reason, comment: comment, connection) else {
                throw PageRefusal(.notFound, "report.no_question")
            }
            return back + (back.contains("?") ? "&" : "?") + "reported=1"
        }?.location
        return .redirect(to: location ?? back)
    }
}
