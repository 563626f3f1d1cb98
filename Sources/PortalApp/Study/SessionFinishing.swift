import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine
import TemplateEngine

/// Flagging a question, the page that confirms finishing, and finishing.
extension SessionPages {
    /// The finish page's flag and unflag buttons: the question and whether to flag it.
    struct FlagForm: PostedForm {
        let questionID: UUID?
        let flagged: Bool

        init(_ form: FormReader) throws(PageRefusal) {
            (questionID, flagged) = (form.uuid("question"), form.text("flagged") == "1")
        }
    }

    func flag(_ request: PortalRequest, session id: UUID) throws -> Response {
        let form = try request.form(FlagForm.self)
        return try withSession(request, id, locking: true) { _, session, connection in
            guard let questionID = form.questionID, let index = session.questionIDs.firstIndex(of: questionID) else {
                throw PageRefusal(.badRequest, "sessions.not_in_session")
            }
            if session.isFinished { return .redirect(to: base(session) + "/results") }
            try StudyStore().setFlag(sessionID: session.id, questionID: questionID, flagged: form.flagged, connection)
            return .redirect(to: "\(base(session))?q=\(index + 1)")
        }
    }

    struct FinishPage: Encodable {
        struct Item: Encodable {
            var ordinal: Int
            var href: String
        }
        var sessionID: String
        var examTitle: String
        var language: String
        var total: Int
        var unanswered: [Item]
        var flagged: [Item]
        var hasUnanswered: Bool
        var unansweredCount: Int
        var hasFlagged: Bool
        var secondsLeft: Int?
        var minutesLeft: Int?
        var deadline: String?
        var endsAt: String?
        var isMock: Bool
    }

    func confirmFinish(_ request: PortalRequest, session id: UUID) throws -> Response {
        let now = clock()
        return try withSession(request, id) { _, session, connection in
            if session.isOverdue(at: now) {
                try finisher.finish(session, at: now, connection)
                return .redirect(to: base(session) + "/results?timeup=1")
            }
            if session.isFinished { return .redirect(to: base(session) + "/results") }
            let answers = try StudyStore().finalAnswers(sessionID: session.id, connection)
            let items = session.questionIDs.enumerated().map { ($0.offset + 1, $0.element) }
            let unanswered = items.filter { answers[$0.1] == nil }.map { FinishPage.Item(ordinal: $0.0, href: "\(base(session))?q=\($0.0)") }
            let flagged = items.filter { session.flagged.contains($0.1) }.map { FinishPage.Item(ordinal: $0.0, href: "\(base(session))?q=\($0.0)") }
            let value = FinishPage(
                sessionID: session.id.lowercasedText, examTitle: session.examTitle, language: session.examLanguage,
                total: session.questionIDs.count, unanswered: unanswered, flagged: flagged, hasUnanswered: !unanswered.isEmpty,
                unansweredCount: unanswered.count, hasFlagged: !flagged.isEmpty,
                secondsLeft: session.deadline.map { max(0, Int($0.timeIntervalSince(now).rounded())) },
                minutesLeft: session.deadline.map { (max(0, Int($0.timeIntervalSince(now).rounded())) + 59) / 60 },
                deadline: session.deadline.map { $0.ISO8601Format() },
                endsAt: session.deadline.map { QuestionPage.clockTime($0, zone: request.user?.timeZone ?? "UTC") }, isMock: session.mode == .mock)
            return try pages.privatePage("sessions/finish", value, request)
        }
    }

    func finish(_ request: PortalRequest, session id: UUID) throws -> Response {
        let now = clock()
        let response = try withSession(request, id, locking: true) { _, session, connection in
            if !session.isFinished { try finisher.finish(session, at: now, connection) }
            fitter?.enqueue(sessionToken: request.database.sessionToken)
            return Response.redirect(to: base(session) + "/results")
        }
        // Committed by now: the sender finds the score if the session was graded.
        scores?.wake()
        return response
    }
}
