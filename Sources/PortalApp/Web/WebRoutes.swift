import HTTPServer

/// The design system's pages and the language switch.
struct WebRoutes {
    let design: DesignPage.Handlers
    let language: LanguageSwitch

    var routes: [PortalRoute] {
        [
            PortalRoute("design", "GET /design", .catalogue) { request, _ in try design.page(request) },
            PortalRoute("designTokens", "GET /design/tokens.css", .catalogue) { request, _ in try design.stylesheet(request) },
            PortalRoute("language", "GET /language/:code", .visitors) { request, p in try language.choose(request, code: p["code"]) },
        ]
    }
}
