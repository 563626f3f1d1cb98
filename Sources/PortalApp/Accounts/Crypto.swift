internal import CSodium
import Foundation

/// libsodium, for what accounts need: Argon2id password hashes, random tokens, SHA-256 and
/// constant-time comparison.
enum Crypto {
    /// Argon2id parameters at least as strong as OWASP's minimum (19 MiB, 2 passes, 1 lane).
    static let passwordMemory = 19 * 1024 * 1024
    static let passwordPasses = 2

    private static let initialized: Bool = sodium_init() >= 0

    /// An encoded Argon2id hash (`$argon2id$v=19$m=19456,t=2,p=1$…`), salt included.
    static func hashPassword(_ password: String) -> String? {
        precondition(initialized, "libsodium failed to initialise")
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        // A trailing NUL keeps the buffer non-empty (so it has an address); it is not hashed.
        let bytes = Array(password.utf8) + [0]
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                crypto_pwhash_str_alg(
                    &output, chars.baseAddress!, UInt64(bytes.count - 1), UInt64(passwordPasses), passwordMemory,
                    crypto_pwhash_ALG_ARGON2ID13)
            }
        }
        guard status == 0 else { return nil }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` matches an encoded hash.
    static func verifyPassword(_ password: String, hash: String) -> Bool {
        precondition(initialized, "libsodium failed to initialise")
        let bytes = Array(password.utf8) + [0]
        var encoded = Array(hash.utf8CString)
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                crypto_pwhash_str_verify(&encoded, chars.baseAddress!, UInt64(bytes.count - 1)) == 0
            }
        }
    }

    /// `count` random bytes from the operating system's generator.
    static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(initialized, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// A random (version 4) UUID from libsodium's generator: Foundation's opens the system's
    /// random device for each one, and every question page shown makes one.
    static func randomUUID() -> UUID {
        precondition(initialized, "libsodium failed to initialise")
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { randombytes_buf($0.baseAddress!, 16) }
        uuid.6 = uuid.6 & 0x0f | 0x40  // version 4
        uuid.8 = uuid.8 & 0x3f | 0x80  // RFC 4122 variant
        return UUID(uuid: uuid)
    }

    /// SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return digest
    }

    /// The raw Argon2id output of `password` with a stored hash's salt and cost: what proves the
    /// password to the database (it compares it with the hash it keeps). Nil when hashing fails.
    static func passwordProof(_ password: String, salt: [UInt8], passes: Int, memoryLimit: Int) -> [UInt8]? {
        precondition(initialized, "libsodium failed to initialise")
        guard salt.count == Int(crypto_pwhash_SALTBYTES) else { return nil }
        var output = [UInt8](repeating: 0, count: 32)
        let bytes = Array(password.utf8) + [0]
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                crypto_pwhash(
                    &output, UInt64(output.count), chars.baseAddress!, UInt64(bytes.count - 1), salt, UInt64(passes), memoryLimit,
                    crypto_pwhash_ALG_ARGON2ID13)
            }
        }
        return status == 0 ? output : nil
    }

    /// HMAC-SHA-256 of `message` under `key`.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var state = crypto_auth_hmacsha256_state()
        var mac = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        crypto_auth_hmacsha256_init(&state, key, key.count)
        crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        crypto_auth_hmacsha256_final(&state, &mac)
        return mac
    }

    /// Lower-case hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Equality that takes the same time wherever the inputs differ.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && sodium_memcmp(a, b, a.count) == 0
    }

    /// A short code to read aloud or type (join codes): upper-case letters and digits without
    /// the easily confused ones (no I, O, 0 or 1).
    static func code(length: Int) -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        return String(randomBytes(length).map { alphabet[Int($0) % alphabet.count] })
    }

    /// A URL-safe token of `bytes` random bytes (base64url, no padding).
    static func token(bytes: Int = 32) -> String {
        Data(randomBytes(bytes)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
