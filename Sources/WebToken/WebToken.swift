import Foundation
import QuestionEngine

/// A JSON Web Token (compact form) signed with RS256: what an LMS's launch and an identity
/// provider's `id_token` are, and what the tool signs (deep-linking responses, client
/// assertions). Only RS256 is taken — `none`, HMAC and every other algorithm are refused — and
/// the key is found by the header's `kid`; the time claims are checked against the server's
/// clock with a small leeway. Who issued it and for whom is the caller's to check.
public struct WebToken: Sendable {
    /// The claims, as JSON.
    public let claims: [String: JSONValue]
    public let header: [String: JSONValue]

    /// Seconds of clock difference forgiven on `exp`, `iat` and `nbf`.
    public static let leeway: TimeInterval = 60

    /// A signed token of `claims`, its header naming `kid`.
    public static func sign(_ claims: [String: JSONValue], key: RSAKey, kid: String) throws(KeyError) -> String {
        let header: JSONValue = .object(["alg": .string("RS256"), "typ": .string("JWT"), "kid": .string(kid)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let input = Base64URL.encode([UInt8]((try? encoder.encode(header)) ?? Data())) + "." + Base64URL.encode([UInt8]((try? encoder.encode(JSONValue.object(claims))) ?? Data()))
        return input + "." + Base64URL.encode(try key.sign(Array(input.utf8)))
    }

    /// The token's claims once its signature checks out with the key its `kid` names (`keys`
    /// gives the key for a kid, or nil) and its times hold at `now`.
    public static func verify(_ token: String, now: Date, keys: (String) -> RSAKey?) throws(TokenRefusal) -> WebToken {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]),
              case .object(let header)? = try? JSONDecoder().decode(JSONValue.self, from: Data(headerBytes)),
              case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: Data(claimBytes)) else { throw .malformed }
        guard case .string("RS256")? = header["alg"] else { throw .algorithm(Self.text(header["alg"]) ?? "none given") }
        guard case .string(let kid)? = header["kid"] else { throw .unknownKey("none given") }
        guard let key = keys(kid) else { throw .unknownKey(kid) }
        guard key.verify(signature, of: Array((parts[0] + "." + parts[1]).utf8)) else { throw .badSignature }
        let seconds = now.timeIntervalSince1970
        guard case .number(let expires)? = claims["exp"] else { throw .missingClaim("exp") }
        guard seconds <= expires + leeway else { throw .expired }
        if case .number(let issued)? = claims["iat"], issued > seconds + leeway { throw .notYetValid }
        if case .number(let notBefore)? = claims["nbf"], notBefore > seconds + leeway { throw .notYetValid }
        return WebToken(claims: claims, header: header)
    }

    /// The claims of a compact JWS as it was sent, signature unchecked: for refusing early with
    /// a clear message only — what is acted on is decided by whoever checks the signature.
    public static func unverifiedClaims(_ token: String) throws(TokenRefusal) -> [String: JSONValue] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let claimBytes = Base64URL.decode(parts[1]),
              case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: Data(claimBytes)) else { throw .malformed }
        return claims
    }

    /// A claim's text, or nil when it is absent or not a string.
    public func string(_ name: String) -> String? { Self.text(claims[name]) }

    private static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }
}

/// Why a token is not taken: words for the page that says so.
public enum TokenRefusal: Error, Equatable, CustomStringConvertible {
    case malformed
    case algorithm(String)
    case unknownKey(String)
    case badSignature
    case missingClaim(String)
    case expired
    case notYetValid

    public var description: String {
        switch self {
        case .malformed: "the token is not a signed JSON Web Token"
        case .algorithm(let name): "the token is signed with \(name.prefix(20)), not RS256"
        case .unknownKey(let kid): "the token's key \(kid.prefix(80)) is not among the issuer's keys"
        case .badSignature: "the token's signature does not match its content"
        case .missingClaim(let name): "the token has no \(name)"
        case .expired: "the token has expired"
        case .notYetValid: "the token is not valid yet (check the clocks)"
        }
    }
}

extension WebToken {
    /// Whether the token is meant for `clientID`: its `aud` is the client id or a list holding
    /// it, and a list of several names the authorised party (`azp`), which must be the client id
    /// too (OpenID Connect Core §3.1.3.7).
    public func isMeant(for clientID: String) -> Bool {
        switch claims["aud"] {
        case .string(let audience)? where audience == clientID: break
        case .array(let audiences)? where audiences.contains(.string(clientID)):
            if audiences.count > 1 && string("azp") == nil { return false }
        default: return false
        }
        if let party = string("azp"), party != clientID { return false }
        return true
    }
}
