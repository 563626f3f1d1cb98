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

    /// The results page: one pipelined read. A session still open is sent to its finish page;
    /// one past its deadline is finished first, then read again like any finished session.
    func results(_ request: PortalRequest, session id: UUID) throws -> Response {
        let now = clock(), query = request.query
        guard let actor = StudyActor.resolve(request, settings: settings, createGuest: false) else { throw notFound(request) }
        let statements = SessionReading.resultsStatements(sessionID: id)
        var (reading, versions) = try keyedReading(request, actor: actor, sessionID: id, page: "results", statements: statements)
        guard var session = reading.session, session.userID == actor.user?.userID else { throw notFound(request) }
        if session.finishedAt == nil {
            guard session.isOverdue(at: now) else { return .redirect(to: base(session) + "/finish") }
            try withSession(request, id, locking: true) { _, locked, connection in
                if locked.finishedAt == nil { try finisher.finish(locked, at: now, connection) }
            }
            // What was kept is of the session before it finished: read afresh, not kept.
            (reading, versions) = (try SessionReading(request.database.read(statements)), nil)
            guard let finished = reading.session else { throw notFound(request) }
            session = finished
        }
        guard let endedAt = session.finishedAt else { return .redirect(to: base(session) + "/finish") }
        let locale = pages.locale(for: request)
        let notice = query["timeup"] != nil ? "sessions.time_up" : query["late"] != nil ? "sessions.late_answer" : nil
        let render = {
            let score = finisher.score(session, questions: reading.questions, answers: reading.answers, endedAt: endedAt)
            let value = ResultsPage(
                session: session, score: score, questions: reading.questions, answers: reading.answers, domainTitles: reading.domainTitles,
                isGuest: actor.isGuest, notice: notice.map { pages.message($0, locale: locale) }, reported: query["reported"] != nil,
                onlyMissed: query["show"] == "missed", csrfToken: request.viewer.csrfToken, pages: pages, locale: locale)
            return try pages.render("sessions/results", value, for: request)
        }
        // A finished session's page changes only with the reader's data or the catalogue (the
        // reading's versions): kept whole for this sign-in (it carries the reader's name, menu
        // and form token), unless it says something for this visit only.
        if let versions, let user = request.user {
            return try keeper.readerPage(request, user, Self.cachedResults(id, query), versions, render: render)
        }
        var response = Response.html(try render())
        response.headers.set("Cache-Control", "private, no-store")
        return response
    }
}
