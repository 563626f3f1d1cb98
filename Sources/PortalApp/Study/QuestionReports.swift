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

    func report(_ request: PortalRequest, _ user: SessionUser, question questionID: UUID) throws -> Response {
        let locale = pages.locale(for: request)
        let form = FormFields(body: request.body)
        let back = LocalPath.validated(form["return_to"]) ?? "/"
        guard let reason = ReportReason(rawValue: form["reason"] ?? "") else {
            throw HTTPError(.badRequest, pages.message("report.bad_reason", locale: locale))
        }
        let comment = (form["comment"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard comment.count <= Self.maximumComment else {
            throw HTTPError(.badRequest, pages.message("report.too_long", locale: locale, ["max": String(Self.maximumComment)]))
        }
        let wait = try request.database.run {
            try AccountStore().rateLimit("report", key: user.userID.uuidString, limit: Self.reportsPerHour, window: 3600, take: true, $0)
        }
        if wait > 0 {
            throw HTTPError(.tooManyRequests, pages.message("report.throttled", locale: locale, ["minutes": String((wait + 59) / 60)]),
                            headers: ["Retry-After": String(wait)])
        }
        // The form is on kept pages (question and results): the same report sent again within
        // ten minutes — a double tap, a reload — is the one already filed.
        let location = try SentOnce.sendByContent(request, form: form, freshFor: 600) { connection -> String in
            guard try StudyStore().report(questionID: questionID, reason: reason, comment: comment, connection) else {
                throw HTTPError(.notFound, pages.message("report.no_question", locale: locale))
            }
            return back + (back.contains("?") ? "&" : "?") + "reported=1"
        }?.location
        return .redirect(to: location ?? back)
    }
}
