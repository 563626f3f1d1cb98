import ExamData
import Foundation
import HTTPClient
import HTTPServer
import QuestionEngine

/// Single sign-on with a school's identity provider (OpenID Connect, authorisation code with
/// PKCE): `GET /auth/:provider` sends the browser to the provider with a fresh state, nonce and
/// code challenge (kept in the database, bound to a cookie of this browser); `GET
/// /auth/:provider/callback` takes the state once, exchanges the code (with the client secret and the
/// verifier), checks the id_token like an LTI launch's — signature by the provider's key set,
/// issuer, audience, expiry, nonce — and the provider's allowed domains, then signs the
/// provider's user in (linked by issuer and `sub`, never by e-mail) or, when a signed-in user
/// began it, links the provider to their account.
struct SingleSignOn: Sendable {
    let pages: PageRenderer
    let site: SiteAddress
    let clock: @Sendable () -> Date
    let keySets: KeySetCache
    let client: HTTPClient
    let accounts: AccountPages

    var cookieName: String { accounts.settings.secure ? "__Host-portal_sso" : "portal_sso" }

    private func refuse(_ key: String, _ arguments: [String: String] = [:], status: HTTPStatus = .badRequest, for request: PortalRequest) -> HTTPError {
        HTTPError(status, pages.message("sso." + key, for: request, arguments))
    }

    /// The provider the address names.
    private func provider(_ request: PortalRequest) throws -> SSOStore.Provider {
        let slug = request.parameter("provider")
        guard slug.utf8.count <= 40, let provider = try request.database.run({ try SSOStore().provider(slug: slug, $0) }) else {
            throw refuse("unknown_provider", status: .notFound, for: request)
        }
        return provider
    }

    /// `GET /auth/:provider` (`?link=1`: link it to the signed-in account; `?next=`: where to go after).
    func start(_ request: PortalRequest) throws -> Response {
        let provider = try provider(request)
        let linking = request.query["link"] == "1"
        if linking && request.user == nil { return .redirect(to: LocalPath.signIn(returningTo: "/me/settings")) }
        let state = Crypto.token(), nonce = Base64URL.encode(Crypto.randomBytes(24)), verifier = Base64URL.encode(Crypto.randomBytes(32))
        let browser = Crypto.token()
        let returnTo = linking ? "/me/settings" : accounts.safeNext(request.query["next"])
        try request.database.run {
            try SSOStore().saveState(
                hash: Crypto.sha256(Array(state.utf8)), providerID: provider.id, nonce: nonce, verifier: verifier, browser: Crypto.sha256(Array(browser.utf8)),
                linking: linking, returnTo: returnTo, at: clock(), $0)
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

    /// `GET /auth/:provider/callback?code=…&state=…`.
    func callback(_ request: PortalRequest) throws -> Response {
        let provider = try provider(request)
        let query = request.query
        guard let code = query["code"], !code.isEmpty, let state = query["state"], !state.isEmpty, state.utf8.count <= 200 else {
            if let error = query["error"] {
                throw refuse("provider_refused", ["error": String(error.prefix(60)), "description": String((query["error_description"] ?? "").prefix(300))], for: request)
            }
            throw refuse("callback_incomplete", for: request)
        }
        let store = SSOStore()
        let browser = Crypto.sha256(Array((request.cookies[cookieName] ?? "").utf8))
        let providerID: Int, nonce: String, verifier: String, linkUser: UUID?, returnTo: String
        switch try request.database.run({ try store.takeState(state, browser: browser, $0) }) {
        case .taken(let id, let loginNonce, let codeVerifier, let user, let next): (providerID, nonce, verifier, linkUser, returnTo) = (id, loginNonce, codeVerifier, user, next)
        case .unknown: throw refuse("state_unknown", for: request)
        case .used: throw refuse("state_used", for: request)
        case .expired: throw refuse("state_expired", for: request)
        case .otherBrowser: throw refuse("state_other_browser", for: request)
        }
        // The answer comes back to the address of the provider the sign-in began with.
        guard providerID == provider.id, let secret = try request.database.run({ try store.clientSecret(providerID: providerID, $0) }) else {
            throw refuse("wrong_issuer", status: .unauthorized, for: request)
        }
        let idToken = try exchange(code: code, verifier: verifier, secret: secret, provider: provider, request)
        let keys = keySets.lookup(provider.jwksURI)
        let token: WebToken
        do {
            token = try WebToken.verify(idToken, now: clock(), keys: keys.key)
        } catch {
            if let problem = keys.problem { throw refuse("keys_unreachable", ["reason": problem], status: .badGateway, for: request) }
            throw refuse("bad_token", ["reason": error.description], status: .unauthorized, for: request)
        }
        guard token.string("iss") == provider.issuer else { throw refuse("wrong_issuer", status: .unauthorized, for: request) }
        guard token.isMeant(for: provider.clientID) else { throw refuse("wrong_audience", status: .unauthorized, for: request) }
        guard token.string("nonce") == nonce else { throw refuse("wrong_nonce", status: .unauthorized, for: request) }
        guard let subject = token.string("sub"), !subject.isEmpty, subject.utf8.count <= 255 else { throw refuse("no_subject", status: .unauthorized, for: request) }
        if let domain = Self.refusedDomain(token, allowed: provider.allowedDomains) {
            throw refuse("domain_not_allowed", ["domain": String(domain.prefix(100)), "provider": provider.label], status: .forbidden, for: request)
        }

        if let linkUser {
            guard request.user?.userID == linkUser else { throw refuse("link_signed_out", status: .forbidden, for: request) }
            switch try request.database.transaction({ try store.link(state: state, subject: subject, $0) }) {
            case "linked":
                var response = Response.redirect(to: "/me/settings?linked=1#sign-ins")
                response.setCookie(SetCookie.expired(name: cookieName, secure: accounts.settings.secure))
                return response
            case "taken": throw refuse("link_taken", ["provider": provider.label], status: .conflict, for: request)
            default: throw refuse("state_used", for: request)
            }
        }
        let name = token.string("name") ?? [token.string("given_name"), token.string("family_name")].compactMap { $0 }.joined(separator: " ")
        let sessionToken = Crypto.token()
        let outcome = try request.database.run {
            try store.signIn(
                state: state, subject: subject, name: String(name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(80)),
                isTeacher: Self.isTeacher(token, claim: provider.teacherClaim, values: provider.teacherValues), token: sessionToken,
                csrfToken: Crypto.token(), userAgent: request.headers["User-Agent"] ?? "", $0)
        }
        switch outcome {
        case .signedIn: break
        case .noState: throw refuse("state_used", for: request)
        case .disabled: throw refuse("account_disabled", status: .forbidden, for: request)
        }
        var response = Response.redirect(to: returnTo)
        try accounts.signedIn(token: sessionToken, request, &response)
        response.setCookie(SetCookie.expired(name: cookieName, secure: accounts.settings.secure))
        return response
    }

    /// The code exchanged at the token endpoint for the id_token.
    private func exchange(code: String, verifier: String, secret: String, provider: SSOStore.Provider, _ request: PortalRequest) throws -> String {
        let body = FormFields(fields: [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", callbackURL(provider, request)), ("client_id", provider.clientID),
            ("client_secret", secret), ("code_verifier", verifier),
        ]).urlEncoded
        let response: HTTPClient.Response
        do {
            response = try client.send(
                "POST", provider.tokenEndpoint, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                body: Array(body.utf8))
        } catch {
            throw refuse("exchange_failed", ["reason": "\(error)"], status: .badGateway, for: request)
        }
        guard case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body)) else {
            throw refuse("exchange_failed", ["reason": "the token endpoint answered \(response.status) without JSON"], status: .badGateway, for: request)
        }
        guard response.status == 200, case .string(let idToken)? = fields["id_token"] else {
            var reason = "the token endpoint answered \(response.status)"
            if case .string(let error)? = fields["error"] { reason += ": " + String(error.prefix(200)) }
            throw refuse("exchange_failed", ["reason": reason], status: .badGateway, for: request)
        }
        return idToken
    }

    /// The domain that keeps the user out, or nil when they may come in: with a list, the
    /// e-mail's domain (a verified one) or the `hd` / `tid` claim must be on it.
    static func refusedDomain(_ token: WebToken, allowed: [String]) -> String? {
        guard !allowed.isEmpty else { return nil }
        let listed = Set(allowed.map { $0.lowercased() })
        var seen: [String] = []
        if let email = token.string("email"), let at = email.lastIndex(of: "@"), token.claims["email_verified"] != .bool(false) {
            seen.append(String(email[email.index(after: at)...]).lowercased())
        }
        for claim in ["hd", "tid"] { if let value = token.string(claim) { seen.append(value.lowercased()) } }
        return seen.contains(where: listed.contains) ? nil : (seen.first ?? "—")
    }

    /// Whether the provider's claim (a text or a list) holds one of the teacher values.
    static func isTeacher(_ token: WebToken, claim: String?, values: [String]) -> Bool {
        guard let claim, !values.isEmpty else { return false }
        switch token.claims[claim] {
        case .string(let value)?: return values.contains(value)
        case .array(let list)?: return list.contains { if case .string(let value) = $0 { values.contains(value) } else { false } }
        default: return false
        }
    }

    /// `POST /me/sso/unlink`: unlinks a provider, keeping at least one way in.
    func unlink(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let issuer = FormFields(body: request.body)["issuer"] ?? ""
        switch try request.database.transaction({ try SSOStore().unlink(issuer: issuer, $0) }) {
        case "unlinked": return .redirect(to: "/me/settings?unlinked=1#sign-ins")
        case "last_way_in": throw refuse("last_way_in", status: .conflict, for: request)
        default: throw refuse("not_linked", status: .notFound, for: request)
        }
    }
}
