import ExamData
import Foundation
import HTTPClient
import HTTPServer
import PostgresClient
import QuestionEngine
import Synchronization
import WebToken

/// Access tokens for a platform's services (Assignment and Grade Services, Names and Roles),
/// got by OAuth 2's client-credentials grant with a JWT client assertion signed by the tool's
/// key (RFC 7523, as LTI's security framework asks), and kept until shortly before they expire.
final class PlatformTokens: Sendable {
    private let client: HTTPClient
    private let database: ConnectionPool
    private let clock: @Sendable () -> Date
    private let tokens = Mutex<[String: (token: String, expires: Date)]>([:])

    init(client: HTTPClient, database: ConnectionPool, clock: @escaping @Sendable () -> Date) {
        self.client = client
        self.database = database
        self.clock = clock
    }

    /// Why a platform would not give a token.
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// A token for `scopes` at the platform's token endpoint.
    func token(tokenURL: String, clientID: String, scopes: [String]) throws -> String {
        let name = Self.cacheKey(tokenURL, clientID, scopes)
        let now = clock()
        if let kept = tokens.withLock({ $0[name] }), kept.expires > now { return kept.token }
        let signing = try database.withConnection { try LTIKeys.signingKey($0) }
        let assertion = try WebToken.sign([
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(tokenURL),
            "iat": .number(now.timeIntervalSince1970.rounded(.down)), "exp": .number(now.timeIntervalSince1970.rounded(.down) + 300),
            "jti": .string(Base64URL.encode(Crypto.randomBytes(16))),
        ], key: signing.key, kid: signing.kid)
        let body = FormFields(fields: [
            ("grant_type", "client_credentials"),
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("client_assertion", assertion), ("scope", scopes.joined(separator: " ")),
        ]).urlEncoded
        let response = try client.send(
            "POST", tokenURL, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")], body: Array(body.utf8))
        guard response.status == 200 else {
            throw Refused(description: "the token endpoint answered \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))")
        }
        guard case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body)),
              case .string(let token)? = fields["access_token"], !token.isEmpty else {
            throw Refused(description: "the token endpoint's answer has no access_token")
        }
        var lifetime: TimeInterval = 3600
        if case .number(let seconds)? = fields["expires_in"] { lifetime = seconds }
        // A minute's margin: a token is never used in its last moments.
        tokens.withLock { $0[name] = (token, now.addingTimeInterval(max(0, lifetime - 60))) }
        return token
    }

    /// Drops a kept token (the platform said it is no longer good).
    func forget(tokenURL: String, clientID: String, scopes: [String]) {
        _ = tokens.withLock { $0.removeValue(forKey: Self.cacheKey(tokenURL, clientID, scopes)) }
    }

    private static func cacheKey(_ tokenURL: String, _ clientID: String, _ scopes: [String]) -> String {
        ([tokenURL, clientID] + scopes.sorted()).joined(separator: "\n")
    }
}
