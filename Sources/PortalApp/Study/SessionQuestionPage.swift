import ExamData
import Foundation
import HTTPServer
import Identifiers
import PostgresClient
import QuestionEngine
import TemplateEngine

/// A session's question page: kept copies answered on the event loop, and the page built
/// from the session's reading when none is kept.
extension SessionPages {
    /// How a showing of a question page is kept, with holes for what each showing puts in it
    /// (the answer's id, the signed moment it was shown, the seconds left): for its reader's
    /// sign-in, by their data version and the catalogue's, the question's number, what the
    /// address asks to show beside it (a refused answer brought back, a notice, a report's
    /// thanks) and the countdown's minutes.
    static func cachedQuestion(_ session: UUID, asked: Int?, _ query: FormFields, minutesLeft: Int?) -> CachedPage {
        let shown = "\(query["refused"] ?? "")|\(query["chosen"] ?? "")|\(query["already"] != nil)|\(query["reported"] != nil)"
        return CachedPage(
            name: "question|\(session.lowercasedText)|\(asked ?? 0)|\(shown)|\(minutesLeft ?? -1)", dependsOn: [.catalogue, .readerData],
            visitors: .builtEachTime)
    }

    /// A kept question page for this showing: its own answer id, stamp and seconds left.
    private static func showing(_ document: SplicedDocument, answerID: String, stamp: String, secondsLeft: Int?, _ headers: HTTPHeaders) -> Response {
        PageKeeper.showing(document, QuestionShell.markerValues(answerID: answerID, stamp: stamp, secondsLeft: secondsLeft), headers)
    }

    /// A student's question page from what is kept, on the event loop (see `PageKeeper`):
    /// their reading of the session, its page with holes and the signing key all in memory,
    /// and the session still open. Anything else goes to `show`.
    func questionCopy(_ request: Request, session id: UUID) -> Response? {
        keeper.readerAnswer(request) { user, locale in
            let query = request.query, asked = query["q"].flatMap { Int($0) }
            guard query["q"] == nil || asked != nil,
                  let versions = keeper.remembered(Self.cachedReading(id, page: "question|\(asked ?? 0)"), for: user) else { return nil }
            let now = clock()
            guard let reading = readings.kept(Self.readingKey(user.userID, id, page: "question|\(asked ?? 0)", versions)),
                  let session = reading.session, session.userID == user.userID,
                  !session.isOverdue(at: now), !session.isFinished, let number = reading.questionNumber, let question = reading.questions.first,
                  asked == nil || (1...session.questionIDs.count).contains(number) else { return nil }
            let secondsLeft = QuestionPage.secondsLeft(session.deadline, now: now)
            let page = Self.cachedQuestion(id, asked: asked, query, minutesLeft: QuestionPage.minutesLeft(secondsLeft))
            guard let document = keeper.keptWithHoles(user, locale: locale, page, versions),
                  let stamp = formClock.knownStamp(session: session.id, question: question.id, at: now) else { return nil }
            return Self.showing(document, answerID: Crypto.randomUUID().lowercasedText, stamp: stamp, secondsLeft: secondsLeft, request.headers)
        }
    }

    /// The question page: one pipelined read of the session, its answers and the question to
    /// show (the one asked for, else the first not answered). A session past its deadline is
    /// finished and leads to its results, a finished one to its results, one with every
    /// question answered to finishing.
    func show(_ request: PortalRequest, session id: UUID) throws -> Response {
        let now = clock(), query = request.query
        guard let actor = StudyActor.resolve(request, settings: settings, createGuest: false) else { throw notFound(request) }
        let asked = query["q"].flatMap { Int($0) }
        let (reading, versions) = try keyedReading(
            request, actor: actor, sessionID: id, page: "question|\(asked ?? 0)",
            statements: SessionReading.questionPageStatements(sessionID: id, number: asked))
        guard let session = reading.session, session.userID == actor.user?.userID else { throw notFound(request) }
        if session.isOverdue(at: now) {
            try withSession(request, id, locking: true) { _, locked, connection in
                if locked.finishedAt == nil { try finisher.finish(locked, at: now, connection) }
            }
            return .redirect(to: base(session) + "/results?timeup=1")
        }
        if session.isFinished { return .redirect(to: base(session) + "/results") }
        let count = session.questionIDs.count
        if query["q"] != nil && !(asked.map { (1...count).contains($0) } ?? false) {
            throw PageRefusal(.notFound, "sessions.no_such_question", ["count": String(count)])
        }
        guard let number = reading.questionNumber, let question = reading.questions.first else {
            if asked == nil && session.questionIDs.allSatisfy({ reading.answers[$0] != nil }) { return .redirect(to: base(session) + "/finish") }
            throw PageRefusal(.gone, "sessions.question_gone")
        }
        let locale = pages.locale(for: request), timeZone = request.user?.timeZone ?? "UTC"
        let stamp = try formClock.stamp(session: session.id, question: question.id, at: now, request.database)
        let notice = query["already"] != nil ? pages.message("sessions.already_answered", for: request) : nil
        let refused = RefusedAnswer(query: query, question: question)
        // Made only when the page is rendered: a kept page needs none of it.
        let shell = {
            QuestionShell(
                session: session, question: question, number: number, answers: reading.answers, isGuest: actor.isGuest, now: now,
                shownStamp: stamp, notice: notice, reported: query["reported"] != nil, refused: refused, pages: pages, locale: locale,
                timeZone: timeZone)
        }
        // The question, its form and the list of questions are one fragment; what changes with
        // each showing (the signed "shown at", the answer's id, the countdown) is outside it, in
        // the shell.
        let fragment = Fragment(key: "") {
            QuestionPage(
                session: session, question: question, number: number, answers: reading.answers, isGuest: actor.isGuest, now: now,
                shownStamp: stamp, draft: nil, notice: notice, error: nil, reported: false, pages: pages, locale: locale,
                refused: refused, timeZone: timeZone, csrfToken: request.viewer.csrfToken, cardDue: reading.cardDue)
        }
        guard let versions, let user = request.user else { return try questionResponse(shell(), fragment, request) }
        // A signed-in student's whole page is kept for this sign-in (its forms carry the
        // reader's token) and reading, with holes for what changes with each showing: the next
        // showing is filled in, not rendered.
        let secondsLeft = QuestionPage.secondsLeft(session.deadline, now: now)
        let page = Self.cachedQuestion(id, asked: asked, query, minutesLeft: QuestionPage.minutesLeft(secondsLeft))
        let document = try keeper.keptWithHoles(request, user, page, versions, markers: QuestionShell.markers) {
            try pages.render(
                "sessions/question", shell().withMarkers, locale: locale, viewer: request.viewer, fragments: ["question": fragment],
                keepFragments: false)
        }
        return Self.showing(document, answerID: Crypto.randomUUID().lowercasedText, stamp: stamp, secondsLeft: secondsLeft, request.headers)
    }

    func questionPage(
        _ request: PortalRequest, session: StudySession, number: Int, answers: [UUID: RecordedAnswer], isGuest: Bool, draft: AnswerResponse?,
        notice: String?, error: String?, reported: Bool, now: Date, status: HTTPStatus = .ok, refusedFrom query: FormFields? = nil,
        _ connection: PostgresConnection
    ) throws -> Response {
        guard let question = try StudyStore().questions(ids: [session.questionIDs[number - 1]], connection).first else {
            throw PageRefusal(.gone, "sessions.question_gone")
        }
        let value = QuestionPage(
            session: session, question: question, number: number, answers: answers, isGuest: isGuest, now: now,
            shownStamp: try formClock.stamp(session: session.id, question: question.id, at: now, request.database), draft: draft,
            notice: notice, error: error, reported: reported, pages: pages, locale: pages.locale(for: request),
            refused: query.flatMap { RefusedAnswer(query: $0, question: question) },
            timeZone: request.user?.timeZone ?? "UTC", csrfToken: request.viewer.csrfToken)
        return try questionResponse(QuestionShell(value), Fragment(key: "") { value }, request, status: status)
    }

    /// A question page rendered for this showing only: the shell around the question's fragment
    /// (a guest's, or one that says something for this request).
    private func questionResponse(_ shell: QuestionShell, _ question: Fragment, _ request: PortalRequest, status: HTTPStatus = .ok) throws -> Response {
        var response = Response.html(try pages.render(
            "sessions/question", shell, locale: pages.locale(for: request), viewer: request.viewer, fragments: ["question": question],
            keepFragments: false), status: status)
        response.headers.set("Cache-Control", "private, no-store")
        return response
    }
}
