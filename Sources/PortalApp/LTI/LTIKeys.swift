import ExamData
import Foundation
import HTTPServer
import PostgresClient
import WebToken

/// The tool's key pair for LTI: made on first use and kept in the database (its private half
/// behind the database's narrow functions), published at `GET /lti/jwks.json` for platforms to
/// check the tool's tokens with, the current key first and a retired one for a week after a
/// rotation (`portal lti rotate-key`).
struct LTIKeys: Sendable {
    /// `GET /lti/jwks.json`.
    func jwks(_ request: PortalRequest) throws -> Response {
        let keys = try request.database.transaction { connection -> [LTIStore.PublicKey] in
            let store = LTIStore()
            let keys = try store.publicKeys(connection)
            if !keys.isEmpty { return keys }
            // First use: another instance may make one at the same moment; the database keeps one.
            _ = try store.addFirstKey(connection, Self.newKey())
            return try store.publicKeys(connection)
        }
        struct Key: Encodable {
            var kty = "RSA", use = "sig", alg = "RS256"
            var kid: String, n: String, e: String
        }
        struct KeySet: Encodable { var keys: [Key] }
        return try APIResponse.json(KeySet(keys: keys.map { Key(kid: $0.kid, n: $0.modulus, e: $0.exponent) }), cache: "public, max-age=300")
    }

    /// The current key to sign the tool's tokens with (made now if there is none yet).
    static func signingKey(_ connection: PostgresConnection) throws -> (kid: String, key: RSAKey) {
        let store = LTIStore()
        if let current = try store.signingKey(connection) { return (current.kid, try RSAKey.privateKey(pem: current.pem)) }
        let made = try newKey()
        if try store.addFirstKey(connection, made) { return made }
        // Another instance made the first key at the same moment: sign with that one.
        guard let current = try store.signingKey(connection) else { throw KeyError.unreadable("the tool has no current key") }
        return (current.kid, try RSAKey.privateKey(pem: current.pem))
    }

    /// A new key pair with a random kid.
    static func newKey() throws -> (kid: String, key: RSAKey) {
        (Base64URL.encode(Crypto.randomBytes(12)), try RSAKey.generate())
    }
}

extension LTIStore {
    /// Stores `made` as the first key (see `addFirstKey`).
    func addFirstKey(_ connection: PostgresConnection, _ made: (kid: String, key: RSAKey)) throws -> Bool {
        let (modulus, exponent) = made.key.publicComponents
        return try addFirstKey(kid: made.kid, pem: made.key.pem, modulus: modulus, exponent: exponent, connection)
    }
}
