import ExamData
import HTTPServer

/// Studying: starting a session (from an exam page, guests too), its pages (each caller finds
/// only their own session), the dashboard, review, reporting a question and an exam's date.
struct StudyRoutes {
    let keeper: PageKeeper
    let starter: SessionStart
    let sessions: SessionPages
    let reports: QuestionReports
    let examDate: ExamDateForm
    /// The exam page, shown again with a refused exam date's reason beside the field.
    let exam: @Sendable (PortalRequest, ExamAddress, ExamDateForm.Refusal?) throws -> Response
    let dashboard: @Sendable (PortalRequest, SessionUser) throws -> Response
    let review: @Sendable (PortalRequest, SessionUser) throws -> Response

    var routes: [PortalRoute] {
        let keeper = self.keeper, sessions = self.sessions
        return [
            PortalRoute("startSession", "POST /sessions", .startFromCachedPage) { request, _ in try starter.start(request) },
            PortalRoute("practiceCount", "GET /exams/:region/:exam/practice-count", .visitors) { request, p in try starter.count(request, p.exam) },
            PortalRoute("question", "GET /sessions/:id(uuid)", .visitors, kept: { request, p in
                (try? p.uuid("id")).flatMap { sessions.questionCopy(request, session: $0) }
            }) { request, p in try sessions.show(request, session: p.uuid("id")) },
            PortalRoute("answer", "POST /sessions/:id(uuid)/answers", .visitors) { request, p in try sessions.answer(request, session: p.uuid("id")) },
            PortalRoute("flag", "POST /sessions/:id(uuid)/flags", .visitors) { request, p in try sessions.flag(request, session: p.uuid("id")) },
            PortalRoute("finishForm", "GET /sessions/:id(uuid)/finish", .visitors) { request, p in try sessions.confirmFinish(request, session: p.uuid("id")) },
            PortalRoute("finish", "POST /sessions/:id(uuid)/finish", .visitors) { request, p in try sessions.finish(request, session: p.uuid("id")) },
            PortalRoute("results", "GET /sessions/:id(uuid)/results", .visitors, kept: { request, p in
                (try? p.uuid("id")).flatMap { id in keeper.loopAnswer(request) { _ in SessionPages.cachedResults(id, request.query) } }
            }) { request, p in try sessions.results(request, session: p.uuid("id")) },
            PortalRoute("dashboard", "GET /me", .members, kept: { request, _ in keeper.loopAnswer(request) { _ in DashboardPage.cached } }) { request, _ in
                try dashboard(request, request.member())
            },
            PortalRoute("review", "GET /me/review", .members) { request, _ in try review(request, request.member()) },
            PortalRoute("reportQuestion", "POST /questions/:id(uuid)/reports", .members) { request, p in
                try reports.report(request, request.member(), question: p.uuid("id"))
            },
            PortalRoute("examDate", "POST /exams/:region/:exam/date", .members) { request, p in
                do {
                    return try examDate.save(request, request.member(), exam: p.exam)
                } catch let refusal as ExamDateForm.Refusal {
                    return try exam(request, p.exam, refusal)
                }
            },
        ]
    }
}
