import Foundation
import PostgresClient

/// The tool's LTI keys and the platforms registered to launch it. The private keys are reached
/// only through the database's narrow functions (`lti_signing_key`, `lti_add_key`; rotation by
/// the owner), never by a query of the table.
public struct LTIStore: Sendable {
    public init() {}

    /// A public key as a JWK publishes it.
    public struct PublicKey: Sendable, Equatable {
        public var kid: String
        public var modulus: String
        public var exponent: String
    }

    /// The keys a platform may check the tool's tokens with: the current one first, then those
    /// retired in the last week.
    public func publicKeys(_ connection: PostgresConnection) throws -> [PublicKey] {
        try connection.query(("SELECT kid, modulus, exponent FROM lti_public_keys()" as SQL).prepared()).rows.map {
            PublicKey(kid: try $0.decode("kid", as: String.self), modulus: try $0.decode("modulus", as: String.self), exponent: try $0.decode("exponent", as: String.self))
        }
    }

    /// The current key to sign with (its kid and PEM), if there is one yet.
    public func signingKey(_ connection: PostgresConnection) throws -> (kid: String, pem: String)? {
        guard let row = try connection.query(("SELECT kid, private_pem FROM lti_signing_key() WHERE kid IS NOT NULL" as SQL).prepared()).first else { return nil }
        return (try row.decode("kid", as: String.self), try row.decode("private_pem", as: String.self))
    }

    /// Stores the first key; false when a current key exists already (another instance made one).
    public func addFirstKey(kid: String, pem: String, modulus: String, exponent: String, _ connection: PostgresConnection) throws -> Bool {
        try connection.query(("SELECT lti_add_key(\(kid), \(pem), \(modulus), \(exponent)) AS added" as SQL).prepared()).single().decode("added", as: Bool.self)
    }

    /// Retires the current key (published a week more) and makes this one current (the owner's).
    public func rotate(kid: String, pem: String, modulus: String, exponent: String, _ connection: PostgresConnection) throws {
        try connection.execute(("SELECT lti_rotate_key(\(kid), \(pem), \(modulus), \(exponent))" as SQL))
    }

    /// Registers a platform and its deployments; an issuer and client id registered already gain
    /// only the deployments they lacked. Says whether the platform is new, and whether anything changed.
    @discardableResult
    public func addPlatform(
        issuer: String, clientID: String, authURL: String, tokenURL: String, jwksURL: String, deploymentIDs: [String], _ connection: PostgresConnection
    ) throws -> PlatformSave {
        let inserted = try connection.query(("""
            INSERT INTO lti_platforms (issuer, client_id, auth_url, token_url, jwks_url)
            VALUES (\(issuer), \(clientID), \(authURL), \(tokenURL), \(jwksURL))
            ON CONFLICT (issuer, client_id) DO NOTHING RETURNING id
            """ as SQL).prepared()).rows.count == 1
        var deploymentsAdded = 0
        for deployment in deploymentIDs {
            deploymentsAdded += try connection.query(("""
                INSERT INTO lti_deployments (platform_id, deployment_id)
                SELECT id, \(deployment) FROM lti_platforms WHERE issuer = \(issuer) AND client_id = \(clientID)
                ON CONFLICT DO NOTHING RETURNING platform_id
                """ as SQL)).rows.count
        }
        return PlatformSave(added: inserted, changed: inserted || deploymentsAdded > 0)
    }

    /// What registering a platform did: `added` it, or `changed` it (a new deployment); a
    /// registration sent again changes nothing, and is not audited again.
    public struct PlatformSave: Sendable {
        public var added: Bool
        public var changed: Bool
    }

    /// A registered platform.
    public struct Platform: Sendable, Equatable {
        public var id: Int
        public var issuer: String
        public var clientID: String
        public var authURL: String
    }

    /// The platform registered under `issuer` (and `clientID`, when the login names one; an
    /// issuer registered with several client ids must name one).
    public func platform(issuer: String, clientID: String?, _ connection: PostgresConnection) throws -> Platform? {
        let rows = try connection.query(("""
            SELECT id, issuer, client_id, auth_url FROM lti_platforms
            WHERE issuer = \(issuer) AND (\(clientID)::text IS NULL OR client_id = \(clientID)) ORDER BY id LIMIT 2
            """ as SQL).prepared()).rows
        guard rows.count == 1, let row = rows.first else { return nil }
        return Platform(
            id: try row.decode("id", as: Int.self), issuer: try row.decode("issuer", as: String.self), clientID: try row.decode("client_id", as: String.self),
            authURL: try row.decode("auth_url", as: String.self))
    }

    /// A login's state (by its hash) and nonce, kept until the launch that answers it, bound to
    /// the browser that began it: `cookie` (the hash of the login's own cookie), `agent` (of its
    /// user agent and address, the last resort) and the platform's storage when it offered one.
    /// Counted against the limits in the database (`client`: the caller's address): 0 when kept,
    /// else the seconds to wait.
    public func beginLogin(
        hash: [UInt8], nonce: String, platformID: Int, targetLinkURI: String, cookie: [UInt8], agent: [UInt8], storageTarget: String?, client: String,
        _ connection: PostgresConnection
    ) throws -> Int {
        try connection.query(("""
            SELECT lti_begin_login(\(PostgresBytes(hash)), \(nonce), \(platformID), \(targetLinkURI), \(PostgresBytes(cookie)), \(PostgresBytes(agent)),
                                   \(storageTarget), \(client)) AS wait
            """ as SQL).prepared()).single().decode("wait", as: Int.self)
    }
}
