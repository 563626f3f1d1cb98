import Foundation
import Testing
import WebPush
import WebToken

/// Web Push against the RFCs' own examples.
@Suite("Web Push: RFC 8291 and RFC 8292")
struct WebPushTests {
    static func bytes(_ text: String) -> [UInt8] { Base64URL.decode(text)! }

    @Test("the message of RFC 8291 Appendix A encrypts to the RFC's bytes exactly")
    func rfc8291Vector() throws {
        let subscriber = try P256Key.publicKey(Self.bytes("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"))
        let sender = try P256Key.keyPair(
            scalar: Self.bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"),
            point: Self.bytes("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"))
        let body = try WebPushEncryption.encrypt(
            Array("When I grow up, I want to be a watermelon".utf8), subscriber: subscriber, authSecret: Self.bytes("BTBZMqHH6r4Tts7J_aSIgg"),
            sender: sender, salt: Self.bytes("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(Base64URL.encode(body) == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
        // The ECDH half of the vector: the user agent's private key meets the sender's public one.
        let agent = try P256Key.keyPair(
            scalar: Self.bytes("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"),
            point: Self.bytes("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"))
        #expect(Base64URL.encode(try agent.sharedSecret(with: try P256Key.publicKey(sender.publicPoint))) == "kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs")
    }

    @Test("every message has a fresh key and salt; a point off the curve, a short secret or an oversized message is refused")
    func refusals() throws {
        let subscriber = try P256Key.publicKey(try P256Key.generate().publicPoint)
        let secret = [UInt8](repeating: 7, count: 16)
        let one = try WebPushEncryption.encrypt([1, 2, 3], subscriber: subscriber, authSecret: secret)
        let two = try WebPushEncryption.encrypt([1, 2, 3], subscriber: subscriber, authSecret: secret)
        #expect(one.prefix(16) != two.prefix(16) && one[21..<86] != two[21..<86])
        var offCurve = subscriber.publicPoint
        offCurve[64] ^= 1
        #expect(throws: KeyError.self) { try P256Key.publicKey(offCurve) }
        #expect(throws: KeyError.self) { try P256Key.publicKey([4] + [UInt8](repeating: 0, count: 64)) }
        #expect(throws: WebPushError.self) { try WebPushEncryption.encrypt([1], subscriber: subscriber, authSecret: [1, 2, 3]) }
        #expect(throws: WebPushError.tooLarge) {
            try WebPushEncryption.encrypt([UInt8](repeating: 0, count: WebPushEncryption.largestMessage + 1), subscriber: subscriber, authSecret: secret)
        }
    }

    @Test("a VAPID header names the push service's origin and carries an ES256 JWT its key verifies")
    func vapid() throws {
        let key = try P256Key.generate()
        let header = try VAPID.authorization(
            endpoint: "https://push.example.net:8443/send/abc?x=1", key: key, subject: "mailto:admin@school.example",
            expires: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(header.hasPrefix("vapid t=") && header.hasSuffix(", k=" + Base64URL.encode(key.publicPoint)))
        let token = String(header.dropFirst("vapid t=".count).prefix { $0 != "," })
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let claims = try JSONSerialization.jsonObject(with: Data(Self.bytes(parts[1]))) as? [String: Any]
        #expect(claims?["aud"] as? String == "https://push.example.net:8443")
        #expect(claims?["exp"] as? Int == 1_800_000_000 && claims?["sub"] as? String == "mailto:admin@school.example")
        #expect(Self.bytes(parts[2]).count == 64, "r ‖ s, as JWS writes ES256")
        // Same key, same input: ECDSA signatures differ (a fresh nonce each time), both verifiable elsewhere.
        let again = try VAPID.authorization(endpoint: "https://push.example.net:8443/send/abc", key: key, subject: "mailto:a@b.example", expires: Date())
        #expect(again != header)
        #expect(try P256Key.privateKey(pem: key.pem).publicPoint == key.publicPoint)
    }
}
