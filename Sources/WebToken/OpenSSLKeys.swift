internal import COpenSSL
import Foundation

/// What the package's OpenSSL keys share: reading and writing a private key as PEM (PKCS #8),
/// and OpenSSL's last error as text.
package enum OpenSSLKeys {
    /// The private key in `pem` (an `EVP_PKEY`, the caller's to free), or nil.
    static func privateKey(pem: String) -> OpaquePointer? {
        let bytes = Array(pem.utf8)
        return bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
    }

    /// `key`'s private half as PEM (unencrypted: kept where only its owner reads); empty when it fails.
    static func pem(_ key: OpaquePointer) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else { return "" }
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = BIO_read(bio, &bytes, Int32(bytes.count))
        return String(decoding: bytes.prefix(max(0, Int(count))), as: UTF8.self)
    }

    /// OpenSSL's last error, as text (and the queue left empty).
    package static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "unknown error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(cString: buffer)
    }
}
