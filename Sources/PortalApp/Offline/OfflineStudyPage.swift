import HTTPServer

/// `GET /offline/study`: the page that runs practice and review sessions from downloaded
/// bundles in the browser. It is part of the service worker's app shell, so it is the same for
/// everyone — no viewer, no token, nothing personal — and the browser fills it in from its own
/// storage. Without JavaScript it says what offline study needs.
struct OfflineStudyPage: Encodable {
    /// Tells the layout to leave out the account links: the cached copy must not show a
    /// signed-in name or a sign-out token that are stale by the time it is used.
    var shell = true

    static func handler(pages: PageRenderer) -> @Sendable (PortalRequest) throws -> Response {
        { request in
            // The service worker asks for each language by name (`?lang=ja`), without cookies.
            let asked = request.query["lang"] ?? ""
            let locale = pages.templates.locales.contains(asked) ? asked : pages.locale(for: request)
            var response = Response.html(try pages.render("offline/study", OfflineStudyPage(), locale: locale))
            // Always revalidated, so a shell update reaches the service worker's next install.
            response.headers.add("Cache-Control", "no-cache")
            return response
        }
    }
}
