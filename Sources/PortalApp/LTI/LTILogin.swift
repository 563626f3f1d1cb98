import ExamData
import Foundation
import HTTPServer

/// LTI 1.3's third-party-initiated login (`GET` or `POST /lti/login`): the platform names
/// itself (`iss`), the user (`login_hint`) and where the launch should land
/// (`target_link_uri`, on this site); the tool answers with a redirect to the platform's
/// authorisation endpoint asking for an `id_token` posted back to `/lti/launch`, with a fresh
/// `state` and `nonce` kept in the database (keyed by the state's hash, never in a cookie).
struct LTILogin: Sendable {
    let pages: PageRenderer
    let site: SiteAddress

    func initiate(_ request: PortalRequest) throws -> Response {
        let fields = request.method == .POST ? FormFields(body: request.body) : request.query
        func refuse(_ key: String, _ arguments: [String: String] = [:]) -> HTTPError {
            HTTPError(.badRequest, pages.message("lti." + key, for: request, arguments))
        }
        guard let issuer = fields["iss"], !issuer.isEmpty, let loginHint = fields["login_hint"], !loginHint.isEmpty,
              let target = fields["target_link_uri"], !target.isEmpty else { throw refuse("login_incomplete") }
        let clientID = fields["client_id"].flatMap { $0.isEmpty ? nil : $0 }
        guard let platform = try request.database.run({ try LTIStore().platform(issuer: issuer, clientID: clientID, $0) }) else {
            throw refuse("unknown_platform", ["issuer": String(issuer.prefix(200))])
        }
        // The launch lands on this site only.
        guard LTILaunch.localPath(of: target, site: site, request) != nil else { throw refuse("foreign_target") }
        let launch = site.url("/lti/launch", for: request.head, peer: request.http.remoteAddress)
        let state = Base64URL.encode(Crypto.randomBytes(32)), nonce = Base64URL.encode(Crypto.randomBytes(24))
        try request.database.run {
            try LTIStore().saveState(
                hash: Crypto.sha256(Array(state.utf8)), nonce: nonce, platformID: platform.id, targetLinkURI: target, browser: Self.browserHash(request), $0)
        }
        var query = [
            ("scope", "openid"), ("response_type", "id_token"), ("response_mode", "form_post"), ("prompt", "none"),
            ("client_id", platform.clientID), ("redirect_uri", launch), ("login_hint", loginHint), ("state", state), ("nonce", nonce),
        ]
        if let hint = fields["lti_message_hint"], !hint.isEmpty { query.append(("lti_message_hint", hint)) }
        // Our parameters after any the platform's address has; each value encoded, `+` too (a
        // form decoder reads a bare one as a space).
        let ours = FormFields(fields: query.map { (name: $0.0, value: $0.1) }).urlEncoded
        let location = platform.authURL + (platform.authURL.contains("?") ? "&" : "?") + ours
        var response = Response.redirect(to: location, status: .found)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// The browser a login began in, as far as the server can tell without a cookie (inside an
    /// LMS's iframe a third-party cookie may never come back): its user agent and address. The
    /// launch must come from the same.
    static func browserHash(_ request: PortalRequest) -> [UInt8] {
        Crypto.sha256(Array(((request.headers["User-Agent"] ?? "") + "\n" + request.clientAddress).utf8))
    }
}
