import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine
import TemplateEngine

/// A session's results page.
extension SessionPages {
    /// How a finished session's results page is kept: for its reader's sign-in, by their data
    /// version and the catalogue's; a page that says something for this visit only (time up, a
    /// late answer, a report's thanks) is built each time.
    static func cachedResults(_ session: UUID, _ query: FormFields) -> CachedPage {
        let forThisVisit = query["timeup"] != nil || query["late"] != nil || query["reported"] != nil
        return CachedPage(
            name: "results|\(session.lowercasedText)|\(query["show"] == "missed")", dependsOn: [.catalogue, .readerData],
            visitors: .builtEachTime, readers: forThisVisit ? .builtEachTime : .kept)
    }

    /// The results page. A finished session's is one pipelined read; one still open (or past
    /// its deadline) goes the transactional way.
    func results(_ request: PortalRequest, session id: UUID) throws -> Response {
        let now = clock(), query = request.query
        let locale = pages.locale(for: request)
        let notice = query["timeup"] != nil ? "sessions.time_up" : query["late"] != nil ? "sessions.late_answer" : nil
        if let actor = StudyActor.resolve(request, settings: settings, createGuest: false) {
            let (reading, versions) = try keyedReading(
                request, actor: actor, sessionID: id, page: "results", statements: SessionReading.resultsStatements(sessionID: id))
            guard let session = reading.session, session.userID == actor.user?.userID else { throw notFound(request) }
            if let endedAt = session.finishedAt {
                let onlyMissed = query["show"] == "missed"
                let render = {
                    let score = finisher.score(session, questions: reading.questions, answers: reading.answers, endedAt: endedAt)
                    let value = ResultsPage(
                        session: session, score: score, questions: reading.questions, answers: reading.answers, domainTitles: reading.domainTitles,
                        isGuest: actor.isGuest, notice: notice.map { pages.message($0, locale: locale) }, reported: query["reported"] != nil,
                        onlyMissed: onlyMissed, csrfToken: request.viewer.csrfToken, pages: pages, locale: locale)
                    return try pages.render("sessions/results", value, for: request)
                }
                // A finished session's page changes only with the reader's data or the catalogue
                // (the reading's versions): kept whole for this sign-in (it carries the reader's
                // name, menu and form token), unless it says something for this visit only.
                if let versions, let user = request.user {
                    return try keeper.readerPage(request, user, Self.cachedResults(id, query), versions, render: render)
                }
                var response = Response.html(try render())
                response.headers.set("Cache-Control", "private, no-store")
                return response
            }
        }
        return try withSession(request, id) { actor, session, connection in
            var session = session
            if session.isOverdue(at: now) {
                try finisher.finish(session, at: now, connection)
                session = try StudyStore().session(id: session.id, connection) ?? session
            }
            guard let endedAt = session.finishedAt else { return .redirect(to: base(session) + "/finish") }
            let store = StudyStore()
            let questions = try store.questions(ids: session.questionIDs, connection)
            let answers = try store.finalAnswers(sessionID: session.id, connection)
            let domains = try store.domainTitles(examID: session.examID, connection)
            let score = finisher.score(session, questions: questions, answers: answers, endedAt: endedAt)
            let value = ResultsPage(
                session: session, score: score, questions: questions, answers: answers, domainTitles: domains, isGuest: actor.isGuest,
                notice: notice.map { pages.message($0, locale: locale) }, reported: query["reported"] != nil,
                onlyMissed: query["show"] == "missed", csrfToken: request.viewer.csrfToken, pages: pages, locale: locale)
            return try pages.privatePage("sessions/results", value, request)
        }
    }
}
