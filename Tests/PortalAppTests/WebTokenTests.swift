import Foundation
import PortalApp
import QuestionEngine
import TestSupport
import Testing
import WebToken

/// RS256 tokens as LTI launches and single sign-on carry them: signed by the tool's key and
/// checked by the OpenSSL command line, and every way a token must be refused.
@Suite("Signed tokens (RS256)", .onTestThreads)
struct WebTokenTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func claims(expiresIn seconds: Double = 300, issuedAt: Double? = nil) -> [String: JSONValue] {
        ["iss": .string("https://lms.example.org"), "sub": .string("student-7"), "aud": .string("tool-client"),
         "iat": .number(issuedAt ?? now.timeIntervalSince1970), "exp": .number(now.timeIntervalSince1970 + seconds)]
    }

    @Test("a key pair signs a token the OpenSSL command line verifies with the published key; its PEM and JWK read back the same key")
    func signAndVerify() throws {
        let key = try RSAKey.generate()
        let token = try WebToken.sign(Self.claims(), key: key, kid: "tool-1")
        let verified = try WebToken.verify(token, now: Self.now) { $0 == "tool-1" ? key : nil }
        #expect(verified.string("sub") == "student-7" && verified.header["alg"] == .string("RS256"))
        // The PEM reads back to a key that signs the same; the JWK's n and e to one that verifies.
        let again = try RSAKey.privateKey(pem: key.pem)
        #expect(key.pem.hasPrefix("-----BEGIN PRIVATE KEY-----") && again.publicComponents == key.publicComponents)
        let published = try RSAKey.publicKey(modulus: key.publicComponents.modulus, exponent: key.publicComponents.exponent)
        #expect(key.publicComponents.exponent == "AQAB" && !published.isPrivate)
        #expect(throws: KeyError.cannotSign) { try published.sign([1, 2, 3]) }
        _ = try WebToken.verify(try WebToken.sign(Self.claims(), key: again, kid: "k"), now: Self.now) { _ in published }

        // An independent check: OpenSSL's own tool verifies the signature over the token's first two parts.
        let folder = NSTemporaryDirectory() + "tokens-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let parts = token.split(separator: ".")
        try key.pem.write(toFile: folder + "/key.pem", atomically: true, encoding: .utf8)
        try Data((parts[0] + "." + parts[1]).utf8).write(to: URL(fileURLWithPath: folder + "/input"))
        try Data(try #require(Base64URL.decode(String(parts[2])))).write(to: URL(fileURLWithPath: folder + "/signature"))
        #expect(runCommand(["openssl", "pkey", "-in", folder + "/key.pem", "-pubout", "-out", folder + "/public.pem"]) == 0)
        #expect(runCommand(["openssl", "dgst", "-sha256", "-verify", folder + "/public.pem", "-signature", folder + "/signature", folder + "/input"]) == 0)
        try Data("tampered".utf8).write(to: URL(fileURLWithPath: folder + "/input"))
        #expect(runCommand(["openssl", "dgst", "-sha256", "-verify", folder + "/public.pem", "-signature", folder + "/signature", folder + "/input"]) != 0)
    }

    @Test("refused: another key's signature, a changed claim, an unknown kid, alg none or HS256, expired, issued in the future, no exp, garbage")
    func refusals() throws {
        let key = try RSAKey.generate(), other = try RSAKey.generate()
        let keys = { (kid: String) -> RSAKey? in kid == "k" ? key : nil }
        func refusal(_ token: String) -> TokenRefusal? {
            do { _ = try WebToken.verify(token, now: Self.now, keys: keys); return nil } catch { return error }
        }
        #expect(refusal(try WebToken.sign(Self.claims(), key: other, kid: "k")) == .badSignature)
        // The same signature over claims changed to another student.
        let token = try WebToken.sign(Self.claims(), key: key, kid: "k")
        let parts = token.split(separator: ".").map(String.init)
        var changed = Self.claims()
        changed["sub"] = .string("student-8")
        let forgedClaims = Base64URL.encode([UInt8](try JSONEncoder().encode(JSONValue.object(changed))))
        #expect(refusal(parts[0] + "." + forgedClaims + "." + parts[2]) == .badSignature)
        #expect(refusal(try WebToken.sign(Self.claims(), key: key, kid: "retired")) == .unknownKey("retired"))
        for algorithm in ["none", "HS256"] {
            let header = Base64URL.encode(Array(#"{"alg":"\#(algorithm)","kid":"k"}"#.utf8))
            #expect(refusal(header + "." + parts[1] + "." + parts[2]) == .algorithm(algorithm))
            #expect(refusal(header + "." + parts[1] + ".") == .algorithm(algorithm))
        }
        #expect(refusal(try WebToken.sign(Self.claims(expiresIn: -61), key: key, kid: "k")) == .expired)
        #expect(refusal(try WebToken.sign(Self.claims(expiresIn: -30), key: key, kid: "k")) == nil, "a little clock difference is forgiven")
        #expect(refusal(try WebToken.sign(Self.claims(issuedAt: Self.now.timeIntervalSince1970 + 600), key: key, kid: "k")) == .notYetValid)
        var noExpiry = Self.claims()
        noExpiry["exp"] = nil
        #expect(refusal(try WebToken.sign(noExpiry, key: key, kid: "k")) == .missingClaim("exp"))
        for garbage in ["", "a.b", "a.b.c", "...", token + ".extra", parts[0] + ".e30=.sig"] { #expect(refusal(garbage) == .malformed, "\(garbage)") }
        // A JWK whose modulus is too short to be a real key is not taken.
        #expect(throws: KeyError.self) { try RSAKey.publicKey(modulus: "AQAB", exponent: "AQAB") }
    }
}
