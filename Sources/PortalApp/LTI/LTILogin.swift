import ExamData
import Foundation
import HTTPServer
import WebToken

/// LTI 1.3's third-party-initiated login (`GET` or `POST /lti/login`): the platform names
/// itself (`iss`), the user (`login_hint`) and where the launch should land
/// (`target_link_uri`, on this site); the tool answers with a redirect to the platform's
/// authorisation endpoint asking for an `id_token` posted back to `/lti/launch`, with a fresh
/// `state` and `nonce` kept in the database (keyed by the state's hash).
///
/// The state is bound to the browser that began the login, so nobody can post their own launch
/// into someone else's browser (login CSRF): by a cookie of its own (`SameSite=None; Secure;
/// Partitioned`, which a browser keeps even inside the LMS's frame when it keeps partitioned
/// cookies), by the platform's postMessage storage when the platform offers it
/// (`lti_storage_target`, 1EdTech's answer for frames whose browser drops the cookie), and by
/// the user agent and address only as the last resort. Logins are limited per address and in
/// all, in the database.
struct LTILogin: Sendable {
    let pages: PageRenderer
    let site: SiteAddress

    /// A platform's third-party login initiation (LTI 1.3, OpenID Connect): its issuer, the
    /// user's login hint, the launch's target, and the client, message hint and storage target
    /// when it gives them.
    struct Initiation: PostedForm {
        let issuer: String
        let loginHint: String
        let target: String
        let clientID: String?
        let messageHint: String?
        let storageTarget: String?

        init(_ form: FormReader) throws(PageRefusal) {
            (issuer, loginHint, target) = (form.text("iss"), form.text("login_hint"), form.text("target_link_uri"))
            guard !issuer.isEmpty, !loginHint.isEmpty, !target.isEmpty else { throw PageRefusal(.badRequest, "lti.login_incomplete") }
            clientID = form.text("client_id").isEmpty ? nil : form.text("client_id")
            messageHint = form.text("lti_message_hint").isEmpty ? nil : form.text("lti_message_hint")
            storageTarget = form.optional("lti_storage_target")
        }
    }

    func initiate(_ request: PortalRequest) throws -> Response {
        // A platform may send the login's parameters in the address or as a form.
        let initiation = try Initiation(FormReader(fields: request.method == .POST ? request.formFields : request.query))
        let (issuer, loginHint, target, clientID) = (initiation.issuer, initiation.loginHint, initiation.target, initiation.clientID)
        func refuse(_ key: String, _ arguments: [String: String] = [:]) -> PageRefusal {
            PageRefusal(.badRequest, "lti." + key, arguments)
        }
        guard let platform = try request.database.run({ try LTIStore().platform(issuer: issuer, clientID: clientID, $0) }) else {
            throw refuse("unknown_platform", ["issuer": String(issuer.prefix(200))])
        }
        // The launch lands on this site only.
        guard LTILaunch.localPath(of: target, site: site, request) != nil, target.utf8.count <= 2000 else { throw refuse("foreign_target") }
        let storageTarget = initiation.storageTarget.flatMap(Self.storageTarget)
        let launch = site.url("/lti/launch", for: request.head, peer: request.http.remoteAddress)
        let state = Base64URL.encode(Crypto.randomBytes(32)), nonce = Base64URL.encode(Crypto.randomBytes(24)), cookie = Crypto.token()
        let wait = try request.database.run {
            try LTIStore().beginLogin(
                hash: Crypto.sha256(Array(state.utf8)), nonce: nonce, platformID: platform.id, targetLinkURI: target, cookie: Crypto.sha256(Array(cookie.utf8)),
                agent: Self.browserHash(request), storageTarget: storageTarget, client: request.clientAddress, $0)
        }
        guard wait == 0 else {
            throw PageRefusal.tooMany("lti.login_throttled", ["seconds": String(wait)], retryAfter: wait)
        }
        var query = [
            ("scope", "openid"), ("response_type", "id_token"), ("response_mode", "form_post"), ("prompt", "none"),
            ("client_id", platform.clientID), ("redirect_uri", launch), ("login_hint", loginHint), ("state", state), ("nonce", nonce),
        ]
        if let hint = initiation.messageHint { query.append(("lti_message_hint", hint)) }
        // Our parameters after any the platform's address has; each value encoded, `+` too (a
        // form decoder reads a bare one as a space).
        let ours = FormFields(fields: query.map { (name: $0.0, value: $0.1) }).urlEncoded
        let location = platform.authURL + (platform.authURL.contains("?") ? "&" : "?") + ours
        var response: Response
        if let storageTarget {
            // The state goes into the platform's storage first; the page then goes on to the
            // platform. (Without JavaScript its link goes on; the launch then relies on the cookie.)
            struct Page: Encodable {
                var location: String
                var target: String
                var origin: String
                var key: String
                var state: String
            }
            let page = Page(location: location, target: storageTarget, origin: Self.origin(of: platform.authURL) ?? "", key: Self.storageKey(state), state: state)
            response = Response.html(try pages.render("lti/storage-login", page, for: request))
            response.headers.set("Content-Security-Policy", LTIDeepLinking.policy(framedBy: nil, postsTo: nil))
        } else {
            response = Response.redirect(to: location, status: .found)
        }
        response.setCookie(Self.cookie(for: state, value: cookie, secure: site.scheme(of: request.head, peer: request.http.remoteAddress) == "https"))
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// The login's own cookie: one per login (two tabs may launch at once), for ten minutes,
    /// sent with the platform's cross-site post (`SameSite=None`, so `Secure` — browsers keep
    /// Secure cookies from http://localhost and 127.0.0.1 too) and kept inside the LMS's frame
    /// where the browser keeps partitioned cookies.
    static func cookie(for state: String, value: String, secure: Bool) -> SetCookie {
        var cookie = SetCookie(name: cookieName(for: state, secure: secure), value: value, path: "/", maxAge: 600, httpOnly: true, secure: true, sameSite: SetCookie.SameSite.none)
        cookie.partitioned = true
        return cookie
    }

    /// The cookie's name for a state (a digest of it: a name must be a token).
    static func cookieName(for state: String, secure: Bool) -> String {
        (secure ? "__Host-" : "") + "portal_lti_" + Crypto.sha256(Array(state.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// The key the state is stored under in the platform's storage.
    static func storageKey(_ state: String) -> String { "state_" + state }

    /// The frame the platform names for its storage, when it is a plausible frame name.
    static func storageTarget(_ name: String) -> String? {
        guard (1...200).contains(name.utf8.count), name.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || "_-.".utf8.contains($0) })
        else { return nil }
        return name
    }

    /// `scheme://host[:port]` of an address (the platform's storage answers only that origin).
    static func origin(of address: String) -> String? {
        guard let url = URL(string: address), let scheme = url.scheme, let host = url.host else { return nil }
        return scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
    }

    /// The browser a login began in, as far as the server can tell without a cookie: its user
    /// agent and address — the last resort, for a framed launch in a browser that drops the
    /// login's cookie on a platform without storage.
    static func browserHash(_ request: PortalRequest) -> [UInt8] {
        Crypto.sha256(Array(((request.headers["User-Agent"] ?? "") + "\n" + request.clientAddress).utf8))
    }
}
