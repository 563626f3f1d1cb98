internal import COpenSSL
import Foundation
import WebToken

/// A Web Push message encrypted for one subscription (RFC 8291 over RFC 8188's `aes128gcm`):
/// a one-time key agreed with the subscriber's key (ECDH), both mixed with the subscription's
/// auth secret (HKDF-SHA-256) into a content key and nonce, one record sealed with AES-128-GCM.
/// Only the subscriber's browser can open it; the push service carries bytes it cannot read.
public enum WebPushEncryption {
    /// The record size written in the header: one record holds any message the portal sends.
    static let recordSize: UInt32 = 4096
    /// The most a message may hold, so that its one record fits.
    public static let largestMessage = Int(recordSize) - 16 - 1

    /// The body to POST for `message` to the subscription whose browser key is `subscriber`
    /// (its `p256dh`) and auth secret is `authSecret`; `sender` and `salt` are fresh for every
    /// message unless a test vector gives them.
    public static func encrypt(
        _ message: [UInt8], subscriber: P256Key, authSecret: [UInt8], sender: P256Key? = nil, salt: [UInt8]? = nil
    ) throws(WebPushError) -> [UInt8] {
        guard authSecret.count == 16 else { throw .badSubscription("the auth secret is not 16 bytes") }
        guard message.count <= largestMessage else { throw .tooLarge }
        let oneTime: P256Key
        if let sender { oneTime = sender } else { oneTime = try wrap { () throws(KeyError) -> P256Key in try P256Key.generate() } }
        let salt = salt ?? random(16)
        guard salt.count == 16 else { throw .badSubscription("the salt is not 16 bytes") }
        let senderPoint = oneTime.publicPoint, subscriberPoint = subscriber.publicPoint
        let shared = try wrap { () throws(KeyError) -> [UInt8] in try oneTime.sharedSecret(with: subscriber) }
        // RFC 8291 §3.4: the input keying material, then the content key and nonce (RFC 8188 §2.2).
        let keyInfo = Array("WebPush: info".utf8) + [0] + subscriberPoint + senderPoint
        let inputKey = HKDF.expand(HKDF.extract(salt: authSecret, key: shared), info: keyInfo, count: 32)
        let pseudoRandom = HKDF.extract(salt: salt, key: inputKey)
        let contentKey = HKDF.expand(pseudoRandom, info: Array("Content-Encoding: aes128gcm".utf8) + [0], count: 16)
        let nonce = HKDF.expand(pseudoRandom, info: Array("Content-Encoding: nonce".utf8) + [0], count: 12)
        // One record, the last: the message, then the delimiter 2 (no padding).
        let sealed = try AES128GCM.seal(message + [2], key: contentKey, nonce: nonce)
        let size = recordSize
        let header = salt + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF), UInt8(senderPoint.count)] + senderPoint
        return header + sealed
    }

    static func random(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        _ = RAND_bytes(&bytes, Int32(count))
        return bytes
    }

    private static func wrap<Value>(_ body: () throws(KeyError) -> Value) throws(WebPushError) -> Value {
        do { return try body() } catch { throw .crypto(error.description) }
    }
}

/// Why a push message could not be made or sent.
public enum WebPushError: Error, Equatable, CustomStringConvertible {
    /// The subscription's keys are not usable.
    case badSubscription(String)
    /// The message does not fit one record.
    case tooLarge
    case crypto(String)

    public var description: String {
        switch self {
        case .badSubscription(let reason): "the subscription cannot be used: \(reason)"
        case .tooLarge: "the message is too large for one push record"
        case .crypto(let reason): "encryption failed: \(reason)"
        }
    }
}

/// HKDF with SHA-256 (RFC 5869).
enum HKDF {
    static func extract(salt: [UInt8], key: [UInt8]) -> [UInt8] { hmac(key: salt, key) }

    static func expand(_ pseudoRandom: [UInt8], info: [UInt8], count: Int) -> [UInt8] {
        var output: [UInt8] = [], block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < count {
            block = hmac(key: pseudoRandom, block + info + [counter])
            output += block
            counter += 1
        }
        return Array(output.prefix(count))
    }

    static func hmac(key: [UInt8], _ data: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), key, Int32(key.count), data, data.count, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }
}

/// AES-128-GCM sealing: the ciphertext followed by its 16-byte tag.
enum AES128GCM {
    static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(WebPushError) -> [UInt8] {
        guard let context = EVP_CIPHER_CTX_new() else { throw .crypto(OpenSSLKeys.lastError()) }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0, finished: Int32 = 0
        var tag = [UInt8](repeating: 0, count: 16)
        guard EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce) == 1,
              EVP_EncryptUpdate(context, &output, &written, plaintext, Int32(plaintext.count)) == 1,
              output.withUnsafeMutableBufferPointer({ EVP_EncryptFinal_ex(context, $0.baseAddress! + Int(written), &finished) }) == 1,
              EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1
        else { throw .crypto(OpenSSLKeys.lastError()) }
        return Array(output.prefix(Int(written + finished))) + tag
    }
}
