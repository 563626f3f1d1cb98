import HTTPServer

/// An exam's leaderboard, kept and answered on the event loop while current.
struct LeaderboardRoutes {
    let keeper: PageKeeper
    let leaderboard: @Sendable (PortalRequest, ExamAddress) throws -> Response

    var routes: [PortalRoute] {
        let keeper = self.keeper
        return [
            PortalRoute("leaderboard", "GET /exams/:region/:exam/leaderboard", .catalogue, kept: { request, p in
                keeper.loopAnswer(request) { _ in LeaderboardPage.cached(request.query, p.exam) }
            }) { request, p in try leaderboard(request, p.exam) },
        ]
    }
}
