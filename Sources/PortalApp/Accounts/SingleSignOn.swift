import ExamData
import Foundation
import HTTPServer
import WebToken

/// Single sign-on with a school's identity provider (OpenID Connect, authorisation code with
/// PKCE):
/// - `GET /auth/:provider` sends the browser to the provider with a fresh state, nonce and code
///   challenge (kept in the database, bound to a cookie of this browser, limited per address);
/// - `GET /auth/:provider/callback` takes the state once and queues the code for `portal
///   auth-agent`, the process that holds the client secret, then answers a page that comes back
///   by itself;
/// - `GET /auth/:provider/finish` asks the database to finish: it verifies the id_token the
///   agent received — signature by the provider's key set, issuer, audience, expiry, nonce —
///   and the admitted domains, then signs the provider's user in (linked by issuer and `sub`,
///   never by e-mail) or, when a signed-in user began it, links the provider to their account.
/// No request waits for the provider: the server never holds the secret, the token or a worker.
struct SingleSignOn: Sendable {
    let pages: PageRenderer
    let site: SiteAddress
    let clock: @Sendable () -> Date
    let accounts: AccountPages

    var cookieName: String { accounts.settings.secure ? "__Host-portal_sso" : "portal_sso" }

    private func refuse(_ key: String, _ arguments: [String: String] = [:], status: HTTPStatus = .badRequest, for request: PortalRequest) -> PageRefusal {
        PageRefusal(status, "sso." + key, arguments)
    }

    /// The provider the address names.
    private func provider(_ request: PortalRequest, _ slug: String) throws -> SSOStore.Provider {
        guard slug.utf8.count <= 40, let provider = try request.database.run({ try SSOStore().provider(slug: slug, $0) }) else {
            throw refuse("unknown_provider", status: .notFound, for: request)
        }
        return provider
    }

    /// `GET /auth/:provider` (`?link=1`: link it to the signed-in account; `?next=`: where to go after).
    func start(_ request: PortalRequest, provider slug: String) throws -> Response {
        let provider = try provider(request, slug)
        let linking = request.query["link"] == "1"
        if linking && request.user == nil { return .redirect(to: LocalPath.signIn(returningTo: "/me/settings")) }
        let state = Crypto.token(), nonce = Base64URL.encode(Crypto.randomBytes(24)), verifier = Base64URL.encode(Crypto.randomBytes(32))
        let browser = Crypto.token()
        let returnTo = linking ? "/me/settings" : accounts.safeNext(request.query["next"])
        let wait = try request.database.run {
            try SSOStore().begin(
                hash: Crypto.sha256(Array(state.utf8)), providerID: provider.id, nonce: nonce, verifier: verifier, browser: Crypto.sha256(Array(browser.utf8)),
                linking: linking, returnTo: returnTo, client: request.clientAddress, $0)
        }
        guard wait == 0 else {
            throw PageRefusal.tooMany("sso.begin_throttled", ["seconds": String(wait)], retryAfter: wait)
        }
        let query = FormFields(fields: [
            ("response_type", "code"), ("client_id", provider.clientID), ("redirect_uri", callbackURL(provider, request)), ("scope", "openid email profile"),
            ("state", state), ("nonce", nonce), ("code_challenge", Base64URL.encode(Crypto.sha256(Array(verifier.utf8)))), ("code_challenge_method", "S256"),
        ]).urlEncoded
        let endpoint = provider.authorizationEndpoint
        var response = Response.redirect(to: endpoint + (endpoint.contains("?") ? "&" : "?") + query, status: .found)
        response.setCookie(SetCookie(name: cookieName, value: browser, path: "/", maxAge: 600, httpOnly: true, secure: accounts.settings.secure, sameSite: .lax))
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    private func callbackURL(_ provider: SSOStore.Provider, _ request: PortalRequest) -> String {
        site.url("/auth/\(provider.slug)/callback", for: request.head, peer: request.http.remoteAddress)
    }

    private func browser(_ request: PortalRequest) -> [UInt8] { Crypto.sha256(Array((request.cookies[cookieName] ?? "").utf8)) }

    /// `GET /auth/:provider/callback?code=…&state=…`.
    func callback(_ request: PortalRequest, provider slug: String) throws -> Response {
        let provider = try provider(request, slug)
        let query = request.query
        guard let code = query["code"], !code.isEmpty, code.utf8.count <= 2000, let state = query["state"], !state.isEmpty, state.utf8.count <= 200 else {
            if let error = query["error"] {
                throw refuse("provider_refused", ["error": String(error.prefix(60)), "description": String((query["error_description"] ?? "").prefix(300))], for: request)
            }
            throw refuse("callback_incomplete", for: request)
        }
        let outcome = try request.database.run {
            try SSOStore().callback(state: state, browser: browser(request), providerID: provider.id, code: code, redirectURI: callbackURL(provider, request), $0)
        }
        switch outcome {
        case .exchanging: return try waiting(provider, request)
        case .unknown: throw refuse("state_unknown", for: request)
        case .used: throw refuse("state_used", for: request)
        case .expired: throw refuse("state_expired", for: request)
        case .otherBrowser: throw refuse("state_other_browser", for: request)
        case .wrongProvider: throw refuse("wrong_issuer", status: .unauthorized, for: request)
        }
    }

    /// A page that comes back to `finish` in a moment, by itself (no JavaScript needed).
    private func waiting(_ provider: SSOStore.Provider, _ request: PortalRequest) throws -> Response {
        struct Page: Encodable {
            var provider: String
            var finish: String
        }
        let finish = "/auth/\(provider.slug)/finish"
        var response = Response.html(try pages.render("accounts/sso-pending", Page(provider: provider.label, finish: finish), for: request), status: .accepted)
        response.headers.set("Refresh", "1; url=\(finish)")
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// `GET /auth/:provider/finish`: the sign-in this browser began, finished by the database.
    func finish(_ request: PortalRequest, provider slug: String) throws -> Response {
        let provider = try provider(request, slug)
        let sessionToken = Crypto.token()
        let outcome = try request.database.run {
            try SSOStore().finish(
                browser: browser(request), providerID: provider.id, token: sessionToken, csrfToken: Crypto.token(), userAgent: request.headers["User-Agent"] ?? "", $0)
        }
        var response: Response
        switch outcome {
        case .pending:
            return try waiting(provider, request)
        case .signedIn(_, let returnTo):
            response = Response.redirect(to: returnTo)
            try accounts.signedIn(token: sessionToken, request, &response)
        case .linked:
            response = Response.redirect(to: "/me/settings?linked=1#sign-ins")
        case .refused(let reason, let detail):
            throw refusal(reason, detail: detail ?? "", provider: provider, request)
        }
        response.setCookie(SetCookie.expired(name: cookieName, secure: accounts.settings.secure))
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// The database's refusal as a page (`sso.` + its reason).
    private func refusal(_ reason: String, detail: String, provider: SSOStore.Provider, _ request: PortalRequest) -> PageRefusal {
        switch reason {
        case "no_exchange": return refuse("state_unknown", for: request)
        case "timed_out": return refuse("exchange_failed", ["reason": pages.message("sso.timed_out", for: request)], status: .gatewayTimeout, for: request)
        case "exchange_failed": return refuse("exchange_failed", ["reason": detail], status: .badGateway, for: request)
        case "keys_unreachable": return refuse("keys_unreachable", ["reason": detail], status: .badGateway, for: request)
        case "malformed": return refuse("bad_token", ["reason": TokenRefusal.malformed.description], status: .unauthorized, for: request)
        case "algorithm": return refuse("bad_token", ["reason": TokenRefusal.algorithm(detail).description], status: .unauthorized, for: request)
        case "unknown_key": return refuse("bad_token", ["reason": TokenRefusal.unknownKey(detail).description], status: .unauthorized, for: request)
        case "bad_signature": return refuse("bad_token", ["reason": TokenRefusal.badSignature.description], status: .unauthorized, for: request)
        case "expired": return refuse("bad_token", ["reason": TokenRefusal.expired.description], status: .unauthorized, for: request)
        case "not_yet_valid": return refuse("bad_token", ["reason": TokenRefusal.notYetValid.description], status: .unauthorized, for: request)
        case "no_user": return refuse("no_subject", status: .unauthorized, for: request)
        case "domain_not_allowed": return refuse("domain_not_allowed", ["domain": detail, "provider": provider.label], status: .forbidden, for: request)
        case "link_signed_out": return refuse("link_signed_out", status: .forbidden, for: request)
        case "link_taken": return refuse("link_taken", ["provider": provider.label], status: .conflict, for: request)
        case "disabled": return refuse("account_disabled", status: .forbidden, for: request)
        default: return refuse(reason, status: .unauthorized, for: request)
        }
    }

    /// The provider to unlink, by its issuer.
    struct UnlinkForm: PostedForm {
        let issuer: String

        init(_ form: FormReader) throws(PageRefusal) { issuer = form.text("issuer") }
    }

    /// `POST /me/sso/unlink`: unlinks a provider, keeping at least one way in.
    func unlink(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let issuer = try request.form(UnlinkForm.self).issuer
        switch try request.database.transaction({ try SSOStore().unlink(issuer: issuer, $0) }) {
        case "unlinked": return .redirect(to: "/me/settings?unlinked=1#sign-ins")
        case "last_way_in": throw refuse("last_way_in", status: .conflict, for: request)
        default: throw refuse("not_linked", status: .notFound, for: request)
        }
    }
}
