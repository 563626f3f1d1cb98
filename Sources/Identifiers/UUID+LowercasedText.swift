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

    /// Reads a UUID written as `UUID(uuidString:)` reads one (8-4-4-4-12 hexadecimal digits,
    /// either case) without Foundation's scanner: routes read one from nearly every address.
    public init?(text: String) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0, digits = 0
        let parsed = withUnsafeMutableBytes(of: &bytes) { (out: UnsafeMutableRawBufferPointer) -> Bool in
            for byte in text.utf8 {
                defer { count += 1 }
                if count == 8 || count == 13 || count == 18 || count == 23 {
                    guard byte == UInt8(ascii: "-") else { return false }
                    continue
                }
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
                default: return false
                }
                guard digits < 32 else { return false }
                out[digits / 2] = digits % 2 == 0 ? value << 4 : out[digits / 2] | value
                digits += 1
            }
            return count == 36 && digits == 32
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }
}
