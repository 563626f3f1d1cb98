import Foundation
import PostgresClient

/// What `portal auth-agent` does in the database, connected as portal_agent (a role `portal
/// serve` never holds): it keeps the platforms' and identity providers' key sets, which the
/// database's sign-in functions verify tokens against, and it answers single sign-on's code
/// exchanges with the client secrets only it may read.
public struct AuthAgentStore: Sendable {
    public init() {}

    /// The key sets to fetch now, each leased to this agent for half a minute.
    public func dueKeySets(limit: Int, _ connection: PostgresConnection) throws -> [String] {
        try connection.query(("SELECT key_sets_due AS uri FROM key_sets_due(\(limit))" as SQL).prepared()).rows.map { try $0.decode("uri", as: String.self) }
    }

    /// Replaces a set's keys with those of the JSON Web Key Set fetched; how many it now has.
    @discardableResult
    public func store(keySet json: String, at uri: String, _ connection: PostgresConnection) throws -> Int {
        try connection.query(("SELECT key_set_store(\(uri), \(json)::jsonb) AS stored" as SQL).prepared()).single().decode("stored", as: Int.self)
    }

    /// A fetch that failed, and why.
    public func keySetFailed(_ uri: String, problem: String, _ connection: PostgresConnection) throws {
        try connection.execute(("SELECT key_set_failed(\(uri), \(problem))" as SQL).prepared())
    }

    /// A code waiting for the token endpoint, with what the request needs.
    public struct Exchange: Sendable, Equatable {
        public var stateHash: [UInt8]
        public var code: String
        public var redirectURI: String
        public var verifier: String
        public var providerID: Int
    }

    /// The codes waiting, leased to this agent for a minute.
    public func dueExchanges(limit: Int, _ connection: PostgresConnection) throws -> [Exchange] {
        try connection.query(("SELECT state_hash, code, redirect_uri, verifier, provider_id FROM sso_exchanges_due(\(limit))" as SQL).prepared()).rows.map {
            Exchange(
                stateHash: try $0.decode("state_hash", as: PostgresBytes.self).bytes, code: try $0.decode("code", as: String.self),
                redirectURI: try $0.decode("redirect_uri", as: String.self), verifier: try $0.decode("verifier", as: String.self),
                providerID: try $0.decode("provider_id", as: Int.self))
        }
    }

    /// How the agent reaches a provider's token endpoint and proves who the portal is.
    public struct Credentials: Sendable, Equatable {
        public var tokenEndpoint: String
        public var clientID: String
        /// The secret (`client_secret_post`), or nil when the tool's key signs (`private_key_jwt`).
        public var clientSecret: String?
    }

    public func credentials(providerID: Int, _ connection: PostgresConnection) throws -> Credentials? {
        try connection.query(("""
            SELECT token_endpoint, client_id, client_secret, client_auth FROM sso_providers WHERE id = \(providerID)
            """ as SQL).prepared()).first.map {
            Credentials(
                tokenEndpoint: try $0.decode("token_endpoint", as: String.self), clientID: try $0.decode("client_id", as: String.self),
                clientSecret: try $0.decode("client_auth", as: String.self) == "private_key_jwt" ? nil : try $0.decode("client_secret", as: String?.self))
        }
    }

    /// The provider's answer: its id_token, or why there is none.
    public func answer(_ exchange: Exchange, idToken: String?, problem: String?, _ connection: PostgresConnection) throws {
        try connection.execute(("SELECT sso_exchange_answered(\(PostgresBytes(exchange.stateHash)), \(idToken), \(problem))" as SQL).prepared())
    }
}
