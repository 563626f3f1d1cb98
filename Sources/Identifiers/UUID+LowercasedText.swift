import Foundation

extension UUID {
    /// The 36-character lowercase form PostgreSQL prints (`uuidString.lowercased()` without the
    /// C library's formatted printing and a second string: ids are written into every
    /// statement, key, form and link), for the database driver and the pages alike.
    public var lowercasedText: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                func digit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x57 + value }
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = digit(byte >> 4)
                    text[at + 1] = digit(byte & 0x0f)
                    at += 2
                }
                return at
            }
        }
    }
}
