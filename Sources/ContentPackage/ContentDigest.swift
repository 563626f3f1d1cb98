internal import CSodium

/// The SHA-256 of a file's bytes in lower-case hexadecimal: what names an image stored with
/// content, so the same image in two packages is stored once and its address never changes
/// meaning (the database checks the name against the bytes as well).
public enum ContentDigest {
    public static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }
}
