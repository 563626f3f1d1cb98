internal import COpenSSL
import Foundation

/// A P-256 key through OpenSSL, for Web Push: the server's VAPID key (ES256 signatures, RFC
/// 8292), each message's one-time key and the subscribers' keys (ECDH, RFC 8291). A public key
/// travels as its 65-byte uncompressed point, as browsers give it.
public final class P256Key: @unchecked Sendable {
    // An EVP_PKEY is safe to use from several threads for signing and deriving once made.
    private let key: OpaquePointer
    /// Whether the private half is here (it can sign and derive).
    public let isPrivate: Bool

    private init(_ key: OpaquePointer, isPrivate: Bool) {
        self.key = key
        self.isPrivate = isPrivate
    }

    deinit { EVP_PKEY_free(key) }

    /// A new key pair.
    public static func generate() throws(KeyError) -> P256Key {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw .openSSL(lastError()) }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "prime256v1") == 1,
              EVP_PKEY_generate(context, &key) == 1, let made = key else { throw .openSSL(lastError()) }
        return P256Key(made, isPrivate: true)
    }

    /// A private key from its PEM (PKCS #8), as `pem` writes it.
    public static func privateKey(pem: String) throws(KeyError) -> P256Key {
        let key = OpenSSLKeys.privateKey(pem: pem)
        guard let key, EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { throw .unreadable("not an EC private key in PEM") }
        return P256Key(key, isPrivate: true)
    }

    /// A public key from its uncompressed point (65 bytes, `04 ‖ x ‖ y`); refused when it is not
    /// a point of the curve.
    public static func publicKey(_ point: [UInt8]) throws(KeyError) -> P256Key {
        guard point.count == 65, point[0] == 4 else { throw .unreadable("not an uncompressed P-256 point") }
        return try fromData(point: point, scalar: nil)
    }

    /// A key pair from its private scalar (32 bytes) and public point: for published test vectors.
    public static func keyPair(scalar: [UInt8], point: [UInt8]) throws(KeyError) -> P256Key {
        guard scalar.count == 32, point.count == 65 else { throw .unreadable("not a P-256 scalar and point") }
        return try fromData(point: point, scalar: scalar)
    }

    private static func fromData(point: [UInt8], scalar: [UInt8]?) throws(KeyError) -> P256Key {
        guard let builder = OSSL_PARAM_BLD_new() else { throw .openSSL(lastError()) }
        // The builder keeps the names' and values' pointers until it makes the parameters.
        let groupName = strdup("group"), group = strdup("prime256v1"), pubName = strdup("pub"), privName = strdup("priv")
        let pointCopy = UnsafeMutablePointer<UInt8>.allocate(capacity: point.count)
        pointCopy.initialize(from: point, count: point.count)
        let number = scalar.map { bytes in bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32(bytes.count), nil) } }
        defer {
            OSSL_PARAM_BLD_free(builder)
            free(groupName); free(group); free(pubName); free(privName)
            pointCopy.deallocate()
            if let number { BN_free(number) }
        }
        guard OSSL_PARAM_BLD_push_utf8_string(builder, groupName, group, 0) == 1,
              OSSL_PARAM_BLD_push_octet_string(builder, pubName, pointCopy, point.count) == 1 else { throw .openSSL(lastError()) }
        if let number, OSSL_PARAM_BLD_push_BN(builder, privName, number) != 1 { throw .openSSL(lastError()) }
        guard let parameters = OSSL_PARAM_BLD_to_param(builder) else { throw .openSSL(lastError()) }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw .openSSL(lastError()) }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        let selection = scalar == nil ? portal_evp_pkey_public_key() : portal_evp_pkey_keypair()
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, selection, parameters) == 1, let made = key else {
            throw .unreadable("OpenSSL does not take the key: " + lastError())
        }
        // fromdata checks the encoding, not that the point is on the curve: ask.
        guard let check = EVP_PKEY_CTX_new_from_pkey(nil, made, nil) else { EVP_PKEY_free(made); throw .openSSL(lastError()) }
        defer { EVP_PKEY_CTX_free(check) }
        guard EVP_PKEY_public_check(check) == 1 else {
            EVP_PKEY_free(made)
            ERR_clear_error()
            throw .unreadable("not a point of P-256")
        }
        return P256Key(made, isPrivate: scalar != nil)
    }

    /// The private key as PEM (PKCS #8, unencrypted: it is kept where only its owner reads).
    public var pem: String {
        isPrivate ? OpenSSLKeys.pem(key) : ""
    }

    /// The public point, uncompressed (65 bytes).
    public var publicPoint: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 65)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(key, "pub", &bytes, bytes.count, &length) == 1, length == 65 else { return [] }
        return bytes
    }

    /// An ES256 signature of `message` as JWS writes it: `r ‖ s`, 32 bytes each.
    public func signES256(_ message: [UInt8]) throws(KeyError) -> [UInt8] {
        guard isPrivate else { throw .cannotSign }
        guard let context = EVP_MD_CTX_new() else { throw .openSSL(Self.lastError()) }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1, EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw .openSSL(Self.lastError())
        }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else { throw .openSSL(Self.lastError()) }
        // OpenSSL writes the DER SEQUENCE of r and s; JWS wants them side by side, padded.
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var pointer: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &pointer, length)
        }
        guard let signature else { throw .openSSL(Self.lastError()) }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 64)
        guard let r = ECDSA_SIG_get0_r(signature), let s = ECDSA_SIG_get0_s(signature),
              raw.withUnsafeMutableBufferPointer({ BN_bn2binpad(r, $0.baseAddress, 32) == 32 && BN_bn2binpad(s, $0.baseAddress! + 32, 32) == 32 })
        else { throw .openSSL(Self.lastError()) }
        return raw
    }

    /// The ECDH shared secret with `peer` (32 bytes).
    public func sharedSecret(with peer: P256Key) throws(KeyError) -> [UInt8] {
        guard isPrivate else { throw .cannotSign }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { throw .openSSL(Self.lastError()) }
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer.key) == 1,
              EVP_PKEY_derive(context, nil, &length) == 1 else { throw .openSSL(Self.lastError()) }
        var secret = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_derive(context, &secret, &length) == 1 else { throw .openSSL(Self.lastError()) }
        return Array(secret.prefix(length))
    }

    private static func lastError() -> String { OpenSSLKeys.lastError() }
}
