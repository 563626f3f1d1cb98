import Foundation
import HTTPServer

/// Refuses a request another site made a reader's browser send: an unsafe request must come
/// from this site (`Origin`, `Sec-Fetch-Site`) and, from anyone holding a form token, carry it.
struct ForgeryCheck {
    let site: SiteAddress
    let pages: PageRenderer

    private func message(_ key: String, _ head: RequestHead) -> String {
        pages.message(key, locale: LocaleNegotiation.choose(userSetting: nil, headers: head.headers, available: pages.templates.locales))
    }

    /// The `csrf_token` field of a form body, URL-encoded or multipart (file uploads).
    static func formToken(_ request: Request) -> String? {
        if let type = request.headers["Content-Type"], type.lowercased().hasPrefix("multipart/form-data") {
            let parts = try? Multipart.parse(body: request.body, contentType: type)
            return parts?.first { $0.name == "csrf_token" }.map { String(decoding: $0.data, as: UTF8.self) }
        }
        return FormFields(body: request.body)["csrf_token"]
    }

    /// A present `Origin` must be this site, and a present `Sec-Fetch-Site` must not say
    /// another site sent the request.
    func checkSameSite(_ head: RequestHead) throws {
        if let origin = head.headers["Origin"], !site.isOwnOrigin(origin, head: head) {
            throw HTTPError(.forbidden, message("error.other_site", head))
        }
        if let fetchSite = head.headers["Sec-Fetch-Site"], fetchSite != "same-origin", fetchSite != "none" {
            throw HTTPError(.forbidden, message("error.other_site", head))
        }
    }

    /// The form field `csrf_token` or the `X-CSRF-Token` header must match; a present `Origin`
    /// must be this site.
    func checkCSRF(_ request: Request, viewer: Viewer) throws {
        try checkSameSite(request.head)
        let sent = request.headers["X-CSRF-Token"] ?? Self.formToken(request) ?? ""
        guard viewer.newCSRFCookie == nil, !viewer.csrfToken.isEmpty, Crypto.constantTimeEqual(Array(sent.utf8), Array(viewer.csrfToken.utf8)) else {
            throw HTTPError(.forbidden, message("error.form_expired", request.head))
        }
    }

    /// The group's rule for unsafe requests: none for what other sites may post (LTI), a
    /// same-site origin for a visitor starting from a cached page, else the form token.
    func check(_ request: Request, viewer: Viewer, _ options: RouteOptions) throws {
        guard request.method.isUnsafe, !options.acceptsOtherSites else { return }
        if options.visitorsNeedNoToken && viewer.user == nil {
            try checkSameSite(request.head)
        } else {
            try checkCSRF(request, viewer: viewer)
        }
    }
}
