internal import COpenSSL
import Foundation

/// An RSA key through OpenSSL, for the JSON Web Tokens of LTI and single sign-on: the tool's
/// own key pair (generated, kept as PEM, published as a JWK) and the platforms' public keys
/// (read from their JWKS). Signatures are RS256: RSASSA-PKCS1-v1_5 over SHA-256.
public final class RSAKey: @unchecked Sendable {
    // An EVP_PKEY is safe to use from several threads for signing and verifying once made.
    private let key: OpaquePointer
    /// Whether the private half is here (it can sign).
    public let isPrivate: Bool

    private init(_ key: OpaquePointer, isPrivate: Bool) {
        self.key = key
        self.isPrivate = isPrivate
    }

    deinit { EVP_PKEY_free(key) }

    /// A new 2048-bit key pair.
    public static func generate() throws(KeyError) -> RSAKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { throw .openSSL(Self.lastError()) }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1, EVP_PKEY_generate(context, &key) == 1,
              let made = key else { throw .openSSL(Self.lastError()) }
        return RSAKey(made, isPrivate: true)
    }

    /// A private key from its PEM (PKCS #8), as `pem` writes it.
    public static func privateKey(pem: String) throws(KeyError) -> RSAKey {
        let key = OpenSSLKeys.privateKey(pem: pem)
        guard let key, EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else { throw .unreadable("not an RSA private key in PEM") }
        return RSAKey(key, isPrivate: true)
    }

    /// A public key from a JWK's modulus and exponent (base64url, big-endian).
    public static func publicKey(modulus: String, exponent: String) throws(KeyError) -> RSAKey {
        guard let n = Base64URL.decode(modulus), let e = Base64URL.decode(exponent), n.count >= 256, !e.isEmpty else {
            throw .unreadable("the key's n and e are not base64url numbers of a 2048-bit key or larger")
        }
        let nNumber = n.withUnsafeBytes { BN_bin2bn($0.bindMemory(to: UInt8.self).baseAddress, Int32(n.count), nil) }
        let eNumber = e.withUnsafeBytes { BN_bin2bn($0.bindMemory(to: UInt8.self).baseAddress, Int32(e.count), nil) }
        defer { BN_free(nNumber); BN_free(eNumber) }
        guard let builder = OSSL_PARAM_BLD_new() else { throw .openSSL(Self.lastError()) }
        // The builder keeps the names' pointers until it makes the parameters: they must outlive
        // the calls that hand them over, which a Swift string passed in does not.
        let nName = strdup("n"), eName = strdup("e")
        defer { OSSL_PARAM_BLD_free(builder); free(nName); free(eName) }
        guard OSSL_PARAM_BLD_push_BN(builder, nName, nNumber) == 1, OSSL_PARAM_BLD_push_BN(builder, eName, eNumber) == 1,
              let parameters = OSSL_PARAM_BLD_to_param(builder) else { throw .openSSL(Self.lastError()) }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else { throw .openSSL(Self.lastError()) }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, portal_evp_pkey_public_key(), parameters) == 1, let made = key else {
            throw .unreadable("OpenSSL does not take the key: " + Self.lastError())
        }
        return RSAKey(made, isPrivate: false)
    }

    /// The private key as PEM (PKCS #8, unencrypted: it is kept where only the owner role reads).
    public var pem: String {
        isPrivate ? OpenSSLKeys.pem(key) : ""
    }

    /// The public half as a JWK's `n` and `e` (base64url).
    public var publicComponents: (modulus: String, exponent: String) {
        func component(_ name: String) -> String {
            var number: OpaquePointer?
            guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else { return "" }
            defer { BN_free(number) }
            var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
            BN_bn2bin(number, &bytes)
            return Base64URL.encode(bytes)
        }
        return (component("n"), component("e"))
    }

    /// An RS256 signature of `message`.
    public func sign(_ message: [UInt8]) throws(KeyError) -> [UInt8] {
        guard isPrivate else { throw .cannotSign }
        guard let context = EVP_MD_CTX_new() else { throw .openSSL(Self.lastError()) }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1, EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw .openSSL(Self.lastError())
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { throw .openSSL(Self.lastError()) }
        return Array(signature.prefix(length))
    }

    /// Whether `signature` is this key's RS256 signature of `message`.
    public func verify(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        let valid = EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        ERR_clear_error()
        return valid
    }

    private static func lastError() -> String { OpenSSLKeys.lastError() }
}

/// Why a key cannot be made, read or used.
public enum KeyError: Error, Equatable, CustomStringConvertible {
    case openSSL(String)
    case unreadable(String)
    case cannotSign

    public var description: String {
        switch self {
        case .openSSL(let reason): "OpenSSL: \(reason)"
        case .unreadable(let reason): reason
        case .cannotSign: "a public key cannot sign"
        }
    }
}
