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

    /// `GET /sessions/{id}/finish`: the review screen of a test centre — every question, or the
    /// unanswered or flagged ones (`?show=`), each with a jump to it — and the button that ends.
    struct FinishPage: Encodable {
        /// A question of the session as the review screen lists it.
        struct Row: Encodable {
            var ordinal: Int
            var href: String
            var answered: Bool
            var flagged: Bool
            /// The start of its text, to know it again by.
            var excerpt: String
        }
        /// One of the review screen's three lists, with how many it holds.
        struct Filter: Encodable {
            var label: String
            var href: String
            var current: Bool
        }
        var sessionID: String
        var examTitle: String
        var language: String
        var total: Int
        var rows: [Row]
        var hasRows: Bool
        var filters: [Filter]
        /// What an empty list means ("Every question is answered.").
        var emptyNote: String?
        var hasUnanswered: Bool
        var unansweredCount: Int
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
            let store = StudyStore()
            let answers = try store.finalAnswers(sessionID: session.id, connection)
            let stems = Dictionary(try store.questions(ids: session.questionIDs, connection).map { ($0.id, $0.stem) }, uniquingKeysWith: { first, _ in first })
            let all = session.questionIDs.enumerated().map { index, questionID in
                FinishPage.Row(
                    ordinal: index + 1, href: "\(base(session))?q=\(index + 1)", answered: answers[questionID] != nil,
                    flagged: session.flagged.contains(questionID), excerpt: Self.excerpt(stems[questionID] ?? ""))
            }
            let lists: [(name: String, rows: [FinishPage.Row], empty: String)] = [
                ("all", all, "sessions.review_none"), ("unanswered", all.filter { !$0.answered }, ""),
                ("flagged", all.filter(\.flagged), "sessions.none_flagged"),
            ]
            let locale = pages.locale(for: request)
            let shown = lists.first { $0.name == request.query["show"] } ?? lists[0]
            let unanswered = lists[1].rows.count
            let value = FinishPage(
                sessionID: session.id.lowercasedText, examTitle: session.examTitle, language: session.examLanguage,
                total: session.questionIDs.count, rows: shown.rows, hasRows: !shown.rows.isEmpty,
                filters: lists.map { list in
                    FinishPage.Filter(
                        label: pages.message("sessions.review_" + list.name, locale: locale, ["count": String(list.rows.count)]),
                        href: "\(base(session))/finish" + (list.name == "all" ? "" : "?show=" + list.name), current: list.name == shown.name)
                },
                // An empty list of the unanswered is said above the lists, whichever is shown.
                emptyNote: shown.rows.isEmpty && shown.name != "unanswered" ? pages.message(shown.empty, locale: locale) : nil,
                hasUnanswered: unanswered > 0, unansweredCount: unanswered,
                secondsLeft: session.deadline.map { max(0, Int($0.timeIntervalSince(now).rounded())) },
                minutesLeft: session.deadline.map { (max(0, Int($0.timeIntervalSince(now).rounded())) + 59) / 60 },
                deadline: session.deadline.map { $0.ISO8601Format() },
                endsAt: session.deadline.map { QuestionPage.clockTime($0, zone: request.user?.timeZone ?? "UTC") }, isMock: session.mode == .mock)
            return try pages.privatePage("sessions/finish", value, request)
        }
    }

    /// A question's text cut to a line, at a word where there is one.
    static func excerpt(_ stem: String) -> String {
        let flat = stem.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard flat.count > 90 else { return flat }
        let cut = flat.prefix(90)
        return (cut.lastIndex(of: " ").map { String(cut[..<$0]) } ?? String(cut)) + "…"
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
