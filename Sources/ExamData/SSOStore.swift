import Foundation
import PostgresClient

/// Single sign-on's providers, sign-ins under way and the links between accounts and providers
/// (OpenID Connect). The client secrets are not among the columns the app's queries read: the
/// code exchange asks `sso_client_secret` for one.
public struct SSOStore: Sendable {
    public init() {}

    /// A registered identity provider.
    public struct Provider: Sendable, Equatable {
        public var id: Int
        public var issuer: String
        /// Its name in the portal's addresses (`/auth/{slug}`).
        public var slug: String
        public var label: String
        public var clientID: String
        public var authorizationEndpoint: String
        public var tokenEndpoint: String
        public var jwksURI: String
        public var allowedDomains: [String]
        public var teacherClaim: String?
        public var teacherValues: [String]

        public init(
            id: Int = 0, issuer: String, slug: String, label: String, clientID: String, authorizationEndpoint: String, tokenEndpoint: String, jwksURI: String,
            allowedDomains: [String], teacherClaim: String?, teacherValues: [String]
        ) {
            self.id = id
            self.issuer = issuer
            self.slug = slug
            self.label = label
            self.clientID = clientID
            self.authorizationEndpoint = authorizationEndpoint
            self.tokenEndpoint = tokenEndpoint
            self.jwksURI = jwksURI
            self.allowedDomains = allowedDomains
            self.teacherClaim = teacherClaim
            self.teacherValues = teacherValues
        }
    }

    private static let columns: SQL = """
        id, issuer, slug, label, client_id, authorization_endpoint, token_endpoint, jwks_uri, allowed_domains, teacher_claim, teacher_values
        """

    /// Every provider, as the sign-in page lists them.
    public func providers(_ connection: PostgresConnection) throws -> [Provider] {
        try connection.query(("SELECT \(fragment: Self.columns) FROM sso_providers ORDER BY label, id" as SQL).prepared()).rows.map(Self.provider)
    }

    public func provider(slug: String, _ connection: PostgresConnection) throws -> Provider? {
        try connection.query(("SELECT \(fragment: Self.columns) FROM sso_providers WHERE slug = \(slug)" as SQL).prepared()).first.map(Self.provider)
    }

    static func provider(_ row: PostgresRow) throws -> Provider {
        Provider(
            id: try row.decode("id", as: Int.self), issuer: try row.decode("issuer", as: String.self), slug: try row.decode("slug", as: String.self),
            label: try row.decode("label", as: String.self),
            clientID: try row.decode("client_id", as: String.self), authorizationEndpoint: try row.decode("authorization_endpoint", as: String.self),
            tokenEndpoint: try row.decode("token_endpoint", as: String.self), jwksURI: try row.decode("jwks_uri", as: String.self),
            allowedDomains: try row.decode("allowed_domains", as: [String].self), teacherClaim: try row.decode("teacher_claim", as: String?.self),
            teacherValues: try row.decode("teacher_values", as: [String].self))
    }

    /// Registers a provider (an admin), or replaces the registration of its issuer; its id.
    /// (An update first, then an insert: an upsert would have to read the secret column, which
    /// the app may write but not read.)
    public func save(_ provider: Provider, clientSecret: String, _ connection: PostgresConnection) throws -> Int {
        if let row = try connection.query(("""
            UPDATE sso_providers SET slug = \(provider.slug), label = \(provider.label), client_id = \(provider.clientID), client_secret = \(clientSecret),
                authorization_endpoint = \(provider.authorizationEndpoint), token_endpoint = \(provider.tokenEndpoint), jwks_uri = \(provider.jwksURI),
                allowed_domains = \(provider.allowedDomains), teacher_claim = \(provider.teacherClaim), teacher_values = \(provider.teacherValues)
            WHERE issuer = \(provider.issuer) RETURNING id
            """ as SQL).prepared()).first {
            return try row.decode("id", as: Int.self)
        }
        return try connection.query(("""
            INSERT INTO sso_providers (issuer, slug, label, client_id, client_secret, authorization_endpoint, token_endpoint, jwks_uri, allowed_domains, teacher_claim, teacher_values)
            VALUES (\(provider.issuer), \(provider.slug), \(provider.label), \(provider.clientID), \(clientSecret), \(provider.authorizationEndpoint), \(provider.tokenEndpoint),
                    \(provider.jwksURI), \(provider.allowedDomains), \(provider.teacherClaim), \(provider.teacherValues))
            RETURNING id
            """ as SQL).prepared()).single().decode("id", as: Int.self)
    }

    /// The client secret, for the code exchange.
    public func clientSecret(providerID: Int, _ connection: PostgresConnection) throws -> String? {
        try connection.query(("SELECT sso_client_secret(\(providerID)) AS secret" as SQL).prepared()).first?.decode("secret", as: String?.self)
    }

    /// Keeps a sign-in's state (by its hash), nonce and PKCE verifier, bound to the browser's
    /// cookie (`browser`, its hash); `linking`: the signed-in caller links the provider.
    public func saveState(
        hash: [UInt8], providerID: Int, nonce: String, verifier: String, browser: [UInt8], linking: Bool, returnTo: String, at date: Date,
        _ connection: PostgresConnection
    ) throws {
        try connection.execute(("""
            INSERT INTO sso_states (state_hash, provider_id, nonce, verifier, browser_hash, link_user, return_to, created_at)
            VALUES (\(PostgresBytes(hash)), \(providerID), \(nonce), \(verifier), \(PostgresBytes(browser)),
                    CASE WHEN \(linking) THEN (SELECT app_user_id()) END, \(returnTo), \(date))
            """ as SQL).prepared())
    }

    public enum StateOutcome: Sendable, Equatable {
        case taken(providerID: Int, nonce: String, verifier: String, linkUser: UUID?, returnTo: String)
        case unknown, used, expired, otherBrowser
    }

    public func takeState(_ state: String, browser: [UInt8], _ connection: PostgresConnection) throws -> StateOutcome {
        let row = try connection.query(("""
            SELECT outcome, provider_id, nonce, verifier, link_user, return_to FROM sso_take_state(\(state), \(PostgresBytes(browser)))
            """ as SQL).prepared()).single()
        switch try row.decode("outcome", as: String.self) {
        case "ok":
            return .taken(
                providerID: try row.decode("provider_id", as: Int.self), nonce: try row.decode("nonce", as: String.self),
                verifier: try row.decode("verifier", as: String.self), linkUser: try row.decode("link_user", as: UUID?.self),
                returnTo: try row.decode("return_to", as: String.self))
        case "used": return .used
        case "expired": return .expired
        case "other_browser": return .otherBrowser
        default: return .unknown
        }
    }

    public enum SignIn: Sendable, Equatable {
        case signedIn(UUID)
        case noState, disabled
    }

    /// Signs the provider's user in with the session of `token` (see `sso_sign_in`).
    public func signIn(state: String, subject: String, name: String, isTeacher: Bool, token: String, csrfToken: String, userAgent: String, _ connection: PostgresConnection) throws -> SignIn {
        let row = try connection.query(("""
            SELECT outcome, user_id FROM sso_sign_in(\(state), \(subject), \(name), \(isTeacher), \(token), \(csrfToken), \(userAgent))
            """ as SQL).prepared()).single()
        switch try row.decode("outcome", as: String.self) {
        case "ok": return .signedIn(try row.decode("user_id", as: UUID.self))
        case "disabled": return .disabled
        default: return .noState
        }
    }

    /// Links the provider's user to the signed-in caller: "linked", "taken" or "no_state".
    public func link(state: String, subject: String, _ connection: PostgresConnection) throws -> String {
        try connection.query(("SELECT sso_link(\(state), \(subject)) AS outcome" as SQL).prepared()).single().decode("outcome", as: String.self)
    }

    /// Unlinks a provider from the caller: "unlinked", "last_way_in" or "not_linked".
    public func unlink(issuer: String, _ connection: PostgresConnection) throws -> String {
        try connection.query(("SELECT sso_unlink(\(issuer)) AS outcome" as SQL).prepared()).single().decode("outcome", as: String.self)
    }

    /// The issuers the caller's account is linked to (single sign-on only).
    public func linkedIssuers(_ connection: PostgresConnection) throws -> [String] {
        try connection.query(("SELECT issuer FROM external_identities WHERE kind = 'sso' AND user_id = (SELECT app_user_id()) ORDER BY issuer" as SQL).prepared())
            .rows.map { try $0.decode("issuer", as: String.self) }
    }
}
