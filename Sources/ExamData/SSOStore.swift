import Foundation
import PostgresClient

/// Single sign-on's providers, sign-ins under way and the links between accounts and providers
/// (OpenID Connect). The client secrets are written here but never read: the code exchange is
/// `portal auth-agent`'s (`AuthAgentStore`), and the database checks what it brings back.
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
        /// How the token endpoint is told who the portal is: `client_secret_post` or
        /// `private_key_jwt` (the tool's own key signs, no secret is kept).
        public var clientAuth: String

        public init(
            id: Int = 0, issuer: String, slug: String, label: String, clientID: String, authorizationEndpoint: String, tokenEndpoint: String, jwksURI: String,
            allowedDomains: [String], teacherClaim: String?, teacherValues: [String], clientAuth: String = "client_secret_post"
        ) {
            self.clientAuth = clientAuth
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
        id, issuer, slug, label, client_id, authorization_endpoint, token_endpoint, jwks_uri, allowed_domains, teacher_claim, teacher_values, client_auth
        """

    /// Every provider, as the sign-in page lists them.
    public func providers(_ connection: PostgresConnection) throws -> [Provider] {
        try connection.query(Self.providersStatement).rows.map(Self.provider)
    }

    /// `providers` as one statement of a pipelined read (its rows: `provider`).
    static let providersStatement: SQL = ("SELECT \(fragment: columns) FROM sso_providers ORDER BY label, id" as SQL).prepared()

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
            teacherValues: try row.decode("teacher_values", as: [String].self), clientAuth: try row.decode("client_auth", as: String.self))
    }

    /// Registers a provider (an admin), or replaces the registration of its issuer; its id.
    /// (An update first, then an insert: an upsert would have to read the secret column, which
    /// the app may write but not read.)
    /// `clientSecret` is nil with `private_key_jwt`.
    public func save(_ provider: Provider, clientSecret: String?, _ connection: PostgresConnection) throws -> Int {
        if let row = try connection.query(("""
            UPDATE sso_providers SET slug = \(provider.slug), label = \(provider.label), client_id = \(provider.clientID), client_secret = \(clientSecret),
                client_auth = \(provider.clientAuth),
                authorization_endpoint = \(provider.authorizationEndpoint), token_endpoint = \(provider.tokenEndpoint), jwks_uri = \(provider.jwksURI),
                allowed_domains = \(provider.allowedDomains), teacher_claim = \(provider.teacherClaim), teacher_values = \(provider.teacherValues)
            WHERE issuer = \(provider.issuer) RETURNING id
            """ as SQL).prepared()).first {
            return try row.decode("id", as: Int.self)
        }
        return try connection.query(("""
            INSERT INTO sso_providers (issuer, slug, label, client_id, client_secret, client_auth, authorization_endpoint, token_endpoint, jwks_uri, allowed_domains,
                                       teacher_claim, teacher_values)
            VALUES (\(provider.issuer), \(provider.slug), \(provider.label), \(provider.clientID), \(clientSecret), \(provider.clientAuth),
                    \(provider.authorizationEndpoint), \(provider.tokenEndpoint), \(provider.jwksURI), \(provider.allowedDomains), \(provider.teacherClaim),
                    \(provider.teacherValues))
            RETURNING id
            """ as SQL).prepared()).single().decode("id", as: Int.self)
    }

    /// Keeps a sign-in's state (by its hash), nonce and PKCE verifier, bound to the browser's
    /// cookie (`browser`, its hash); `linking`: the signed-in caller links the provider. Counted
    /// against the limits in the database (`client`: the caller's address): 0 when kept, else
    /// the seconds to wait.
    public func begin(
        hash: [UInt8], providerID: Int, nonce: String, verifier: String, browser: [UInt8], linking: Bool, returnTo: String, client: String,
        _ connection: PostgresConnection
    ) throws -> Int {
        try connection.query(("""
            SELECT sso_begin(\(PostgresBytes(hash)), \(providerID), \(nonce), \(verifier), \(PostgresBytes(browser)), \(linking), \(returnTo), \(client)) AS wait
            """ as SQL).prepared()).single().decode("wait", as: Int.self)
    }

    /// What the provider's answer came to.
    public enum Callback: Sendable, Equatable {
        /// The code is on its way to the token endpoint (`portal auth-agent` takes it).
        case exchanging(linking: Bool, returnTo: String)
        /// Never issued, used already, older than ten minutes, begun in another browser, begun
        /// with another provider.
        case unknown, used, expired, otherBrowser, wrongProvider
    }

    /// Takes the state once (from the browser that began it) and queues the code for the agent.
    public func callback(state: String, browser: [UInt8], providerID: Int, code: String, redirectURI: String, _ connection: PostgresConnection) throws -> Callback {
        let row = try connection.query(("""
            SELECT outcome, linking, return_to FROM sso_callback(\(state), \(PostgresBytes(browser)), \(providerID), \(code), \(redirectURI))
            """ as SQL).prepared()).single()
        switch try row.decode("outcome", as: String.self) {
        case "ok": return .exchanging(linking: try row.decode("linking", as: Bool.self), returnTo: try row.decode("return_to", as: String.self))
        case "used": return .used
        case "expired": return .expired
        case "other_browser": return .otherBrowser
        case "wrong_provider": return .wrongProvider
        default: return .unknown
        }
    }

    /// What finishing the sign-in came to (see `sso_finish`).
    public enum Finish: Sendable, Equatable {
        case signedIn(userID: UUID, returnTo: String)
        case linked(returnTo: String)
        /// The agent has not answered yet (or the provider's key set is being fetched).
        case pending
        /// Refused: the reason (`sso.` + it names the message) and its detail.
        case refused(reason: String, detail: String?)
    }

    /// Finishes the sign-in this browser began with the provider: the database verifies the
    /// token the agent received and signs the user in with the session of `token`, or links.
    public func finish(browser: [UInt8], providerID: Int, token: String, csrfToken: String, userAgent: String, _ connection: PostgresConnection) throws -> Finish {
        let row = try connection.query(("""
            SELECT outcome, user_id, return_to, problem FROM sso_finish(\(PostgresBytes(browser)), \(providerID), \(token), \(csrfToken), \(userAgent))
            """ as SQL).prepared()).single()
        switch try row.decode("outcome", as: String.self) {
        case "ok": return .signedIn(userID: try row.decode("user_id", as: UUID.self), returnTo: try row.decode("return_to", as: String.self))
        case "linked": return .linked(returnTo: try row.decode("return_to", as: String.self))
        case "pending": return .pending
        case let reason: return .refused(reason: reason, detail: try row.decode("problem", as: String?.self))
        }
    }

    /// Unlinks a provider from the caller: "unlinked", "last_way_in" or "not_linked".
    public func unlink(issuer: String, _ connection: PostgresConnection) throws -> String {
        try connection.query(("SELECT sso_unlink(\(issuer)) AS outcome" as SQL).prepared()).single().decode("outcome", as: String.self)
    }
}
