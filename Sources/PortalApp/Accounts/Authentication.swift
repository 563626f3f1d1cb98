import ExamData
import Foundation
import HTTPServer
import PostgresClient

/// Who is asking: the session behind the cookie (if any) and the CSRF token their forms carry.
struct Viewer: Sendable {
    var user: SessionUser?
    /// The token forms must echo: the session's, or for a visitor the double-submit cookie's.
    var csrfToken: String
    /// A new CSRF cookie to set (a visitor without a usable one).
    var newCSRFCookie: String?
}

extension Request {
    var viewer: Viewer? { attributes["viewer"] as? Viewer }
    var user: SessionUser? { viewer?.user }
}

/// Middleware resolving the session cookie and enforcing CSRF on every unsafe request.
struct Authentication: Sendable {
    let database: ConnectionPool
    let settings: SessionSettings
    let clock: @Sendable () -> Date

    /// A malformed, short, huge or unknown cookie is simply no session, never an error.
    /// A visitor without a CSRF cookie gets one only where `issueVisitorToken` (pages with
    /// forms for visitors), so shared public pages stay free of Set-Cookie and of the work.
    func viewer(for request: Request, issueVisitorToken: Bool) throws -> Viewer {
        let cookies = request.cookies
        var user: SessionUser?
        if let token = cookies[settings.cookieName], SessionSettings.isWellFormed(token) {
            let hash = Crypto.sha256(Array(token.utf8))
            user = try database.withConnection { connection in
                try AccountStore().sessionUser(
                    tokenHash: hash, now: clock(), idle: settings.idleTimeout, absolute: settings.absoluteLifetime, connection)
            }
        }
        if let user { return Viewer(user: user, csrfToken: user.csrfToken) }
        if let token = cookies[settings.csrfCookieName], SessionSettings.isWellFormed(token) {
            return Viewer(user: nil, csrfToken: token)
        }
        guard issueVisitorToken else { return Viewer(user: nil, csrfToken: "") }
        let fresh = Crypto.token()
        return Viewer(user: nil, csrfToken: fresh, newCSRFCookie: fresh)
    }

    /// `visitorsNeedNoToken`: a visitor (nobody signed in) may post without a token, as long
    /// as the browser does not say the request comes from another site. For starting a guest
    /// session from the cached exam page, which carries no per-visitor token: such a post acts
    /// on no account, and the guest cookie it may set is `SameSite=Lax`, so another site's
    /// post can never reach an existing guest's sessions.
    func middleware(issueVisitorToken: Bool, visitorsNeedNoToken: Bool = false) -> Middleware {
        { request, next in
            var request = request
            let viewer = try viewer(for: request, issueVisitorToken: issueVisitorToken)
            request.attributes["viewer"] = viewer
            if request.method.isUnsafe {
                if visitorsNeedNoToken && viewer.user == nil {
                    try checkSameSite(request)
                } else {
                    try checkCSRF(request, viewer: viewer)
                }
            }
            var response = try next(request)
            if let cookie = viewer.newCSRFCookie {
                response.setCookie(SetCookie(name: settings.csrfCookieName, value: cookie, path: "/", httpOnly: true, secure: settings.secure, sameSite: .lax))
            }
            return response
        }
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
    func checkSameSite(_ request: Request) throws {
        if let origin = request.headers["Origin"], let host = request.headers["Host"] {
            guard origin == "http://\(host)" || origin == "https://\(host)" else {
                throw HTTPError(.forbidden, "This form was sent from another site, so it was not accepted.")
            }
        }
        if let site = request.headers["Sec-Fetch-Site"], site != "same-origin", site != "none" {
            throw HTTPError(.forbidden, "This form was sent from another site, so it was not accepted.")
        }
    }

    /// The form field `csrf_token` or the `X-CSRF-Token` header must match; a present `Origin`
    /// must be this site.
    func checkCSRF(_ request: Request, viewer: Viewer) throws {
        try checkSameSite(request)
        let sent = request.headers["X-CSRF-Token"] ?? Self.formToken(request) ?? ""
        guard viewer.newCSRFCookie == nil, !viewer.csrfToken.isEmpty, Crypto.constantTimeEqual(Array(sent.utf8), Array(viewer.csrfToken.utf8)) else {
            throw HTTPError(.forbidden, "This form has expired. Go back, reload the page and send it again.")
        }
    }
}
