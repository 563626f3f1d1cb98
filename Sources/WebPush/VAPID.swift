import Foundation
import WebToken

/// Voluntary Application Server Identification (RFC 8292): the `Authorization` header that
/// proves to a push service that a message comes from the server a subscription was made for —
/// a JWT signed with the server's P-256 key (ES256) naming the push service's origin, an expiry
/// within a day and a contact, beside the key itself.
public enum VAPID {
    /// `vapid t=<JWT>, k=<public key>` for a request to `endpoint`, valid until `expires`;
    /// `subject` (a `mailto:` or `https:` contact) is left out when there is none.
    public static func authorization(endpoint: String, key: P256Key, subject: String?, expires: Date) throws(WebPushError) -> String {
        guard let url = URL(string: endpoint), let scheme = url.scheme, let host = url.host else {
            throw .badSubscription("the endpoint is not a URL")
        }
        let audience = scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
        let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let claims: Data
        do {
            claims = try JSONSerialization.data(
                withJSONObject: ["aud": audience, "exp": Int(expires.timeIntervalSince1970)].merging(subject.map { ["sub": $0] } ?? [:]) { a, _ in a },
                options: [.sortedKeys])
        } catch {
            throw .crypto("the claims cannot be written")
        }
        let signingInput = header + "." + Base64URL.encode([UInt8](claims))
        let signature: [UInt8]
        do { signature = try key.signES256(Array(signingInput.utf8)) } catch { throw .crypto(error.description) }
        return "vapid t=\(signingInput).\(Base64URL.encode(signature)), k=\(Base64URL.encode(key.publicPoint))"
    }
}
