import HTTPServer

/// The catalogue: the home page, an exam's page (both kept, and answered on the event loop
/// while current) and content's pictures.
struct CatalogRoutes {
    let keeper: PageKeeper
    let home: @Sendable (PortalRequest) throws -> Response
    /// The exam page; with a refused exam date, shown again with the reason beside the field.
    let exam: @Sendable (PortalRequest, ExamAddress, ExamDateForm.Refusal?) throws -> Response
    let pictures: ContentImageFiles

    var routes: [PortalRoute] {
        let keeper = self.keeper
        return [
            PortalRoute("home", "GET /", .catalogue, kept: { request, _ in keeper.loopAnswer(request) { _ in HomePage.cached } }) { request, _ in
                try home(request)
            },
            PortalRoute("exam", "GET /exams/:region/:exam", .catalogue, kept: { request, p in
                keeper.loopAnswer(request) { ExamPage.cached(request.query, p.exam, reader: $0, guest: request.cookie(keeper.guestCookie) != nil) }
            }) { request, p in try exam(request, p.exam, nil) },
            PortalRoute("contentImage", "GET /content-images/:file", .pictures) { request, p in try pictures.image(request, file: p["file"]) },
        ]
    }
}
