import ExamData
import Foundation
import HTTPClient
import HTTPServer
import QuestionEngine

/// `/admin/sso`: the identity providers students may sign in with. A provider is registered by
/// its issuer — its endpoints are read from its discovery document
/// (`/.well-known/openid-configuration`) — with the client id and secret it gave the portal, the
/// button's label, the e-mail domains (or `hd` / `tid` values) it admits, and which claim's
/// values make a teacher. Registering the same issuer again replaces its registration. Audited.
struct SSOAdmin: Sendable {
    let pages: PageRenderer
    let site: SiteAddress
    let clock: @Sendable () -> Date
    let client: HTTPClient

    struct Page: Encodable {
        struct Provider: Encodable {
            var label: String
            var callbackURL: String
            var issuer: String
            var clientID: String
            var domains: String
            var teachers: String
            /// How the portal proves itself at the token endpoint, in words.
            var clientAuth: String
        }
        var providers: [Provider]
        /// The tool's key set, for providers that take the portal's key (private_key_jwt).
        var jwksURL: String
        var hasProviders: Bool
        var callbackPattern: String
        var problem: String?
        var saved: Bool
        var form: FormValues
    }

    struct FormValues: Encodable {
        var issuer = "", slug = "", label = "", client_id = "", domains = "", teacher_claim = "", teacher_values = ""
    }

    func page(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        try show(request, problem: nil, form: FormValues(), status: .ok)
    }

    /// `POST /admin/sso/providers`.
    func save(_ request: PortalRequest, _ user: SessionUser) throws -> Response {
        let fields = FormReader(fields: request.formFields)
        func value(_ name: String) -> String { fields.trimmed(name) }
        let form = FormValues(
            issuer: value("issuer"), slug: value("slug").lowercased(), label: value("label"), client_id: value("client_id"), domains: value("domains"),
            teacher_claim: value("teacher_claim"), teacher_values: value("teacher_values"))
        let secret = value("client_secret")
        func again(_ key: String, _ arguments: [String: String] = [:]) throws -> Response {
            try show(request, problem: pages.message("sso." + key, for: request, arguments), form: form, status: .unprocessableContent)
        }
        guard !form.issuer.isEmpty, !form.slug.isEmpty, !form.label.isEmpty, !form.client_id.isEmpty else { return try again("admin_missing") }
        guard form.slug.range(of: "^[a-z0-9][a-z0-9-]{0,39}$", options: .regularExpression) != nil else { return try again("admin_bad_slug") }
        guard form.label.count <= 60, form.client_id.count <= 300, secret.count <= 500 else { return try again("admin_too_long") }
        guard Self.isAcceptable(form.issuer) else { return try again("admin_not_https", ["address": String(form.issuer.prefix(200))]) }
        if !form.teacher_claim.isEmpty && form.teacher_claim.range(of: "^[A-Za-z0-9_:./-]{1,100}$", options: .regularExpression) == nil {
            return try again("admin_bad_claim")
        }
        let others = try request.database.transaction { try SSOStore().providers($0) }
        if others.contains(where: { $0.slug == form.slug && $0.issuer != form.issuer }) { return try again("admin_slug_taken", ["slug": form.slug]) }
        let discovery: Discovery
        switch discover(form.issuer) {
        case .success(let found): discovery = found
        case .failure(let reason): return try again("admin_discovery_failed", ["reason": reason.description])
        }
        // Without a secret the portal's own key signs at the token endpoint, where the provider
        // says it takes that (private_key_jwt): then no secret is kept at all.
        guard !secret.isEmpty || discovery.acceptsKey else { return try again("admin_missing") }
        func list(_ text: String) -> [String] {
            text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map { String($0).lowercased() }.filter { !$0.isEmpty }
        }
        let provider = SSOStore.Provider(
            issuer: form.issuer, slug: form.slug, label: form.label, clientID: form.client_id, authorizationEndpoint: discovery.authorization, tokenEndpoint: discovery.token,
            jwksURI: discovery.jwks, allowedDomains: list(form.domains), teacherClaim: form.teacher_claim.isEmpty ? nil : form.teacher_claim,
            teacherValues: form.teacher_values.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty },
            clientAuth: secret.isEmpty ? "private_key_jwt" : "client_secret_post")
        try request.database.transaction { connection in
            let id = try SSOStore().save(provider, clientSecret: secret.isEmpty ? nil : secret, connection)
            try AdminStore().audit(
                actorName: user.displayName, action: "sso.provider", target: provider.issuer,
                details: ["id": String(id), "label": provider.label, "client_id": provider.clientID, "domains": provider.allowedDomains.joined(separator: ","),
                          "client_auth": provider.clientAuth],
                at: clock(), connection)
        }
        return .redirect(to: "/admin/sso?saved=1")
    }

    struct DiscoveryProblem: Error, CustomStringConvertible {
        var description: String
    }

    /// What a discovery document says of a provider.
    struct Discovery {
        var authorization: String
        var token: String
        var jwks: String
        /// It takes a client assertion signed by the portal's key (`private_key_jwt`).
        var acceptsKey: Bool
    }

    /// The provider's endpoints from its discovery document, which must name the same issuer.
    private func discover(_ issuer: String) -> Result<Discovery, DiscoveryProblem> {
        let address = (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/openid-configuration"
        let response: HTTPClient.Response
        do {
            response = try client.send("GET", address, headers: [("Accept", "application/json")])
        } catch {
            return .failure(DiscoveryProblem(description: "\(address): \(error)"))
        }
        guard response.status == 200, case .object(let document)? = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body)) else {
            return .failure(DiscoveryProblem(description: "\(address) answered \(response.status) without a discovery document"))
        }
        func text(_ name: String) -> String? { if case .string(let value)? = document[name] { value } else { nil } }
        guard text("issuer") == issuer else { return .failure(DiscoveryProblem(description: "the document names another issuer: \(text("issuer") ?? "none")")) }
        guard let authorization = text("authorization_endpoint"), let token = text("token_endpoint"), let jwks = text("jwks_uri"),
              [authorization, token, jwks].allSatisfy(Self.isAcceptable) else {
            return .failure(DiscoveryProblem(description: "the document lacks an authorization_endpoint, token_endpoint or jwks_uri at an https:// address"))
        }
        var acceptsKey = false
        if case .array(let methods)? = document["token_endpoint_auth_methods_supported"] { acceptsKey = methods.contains(.string("private_key_jwt")) }
        return .success(Discovery(authorization: authorization, token: token, jwks: jwks, acceptsKey: acceptsKey))
    }

    /// HTTPS, or HTTP to this machine (a rehearsal).
    static func isAcceptable(_ address: String) -> Bool {
        guard let parts = URLComponents(string: address), let host = parts.host, !host.isEmpty, !address.contains(where: \.isWhitespace) else { return false }
        return parts.scheme == "https" || (parts.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(host))
    }

    private func show(_ request: PortalRequest, problem: String?, form: FormValues, status: HTTPStatus) throws -> Response {
        let providers = try request.database.transaction { try SSOStore().providers($0) }
        func url(_ path: String) -> String { site.url(path, for: request.head, peer: request.http.remoteAddress) }
        let page = Page(
            providers: providers.map { provider in
                .init(label: provider.label, callbackURL: url("/auth/\(provider.slug)/callback"), issuer: provider.issuer, clientID: provider.clientID,
                      domains: provider.allowedDomains.isEmpty ? "—" : provider.allowedDomains.joined(separator: ", "),
                      teachers: provider.teacherClaim.map { $0 + ": " + provider.teacherValues.joined(separator: ", ") } ?? "—",
                      clientAuth: pages.message(provider.clientAuth == "private_key_jwt" ? "sso.admin_auth_key" : "sso.admin_auth_secret", for: request))
            },
            jwksURL: url("/lti/jwks.json"),
            hasProviders: !providers.isEmpty, callbackPattern: url("/auth/") + pages.message("sso.admin_slug_placeholder", for: request) + "/callback",
            problem: problem, saved: request.query["saved"] != nil, form: form)
        return try pages.privatePage("admin/sso", page, request, status: status)
    }
}
