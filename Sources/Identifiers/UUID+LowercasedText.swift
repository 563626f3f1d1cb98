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
    /// either case) straight from the bytes into two 64-bit halves, without Foundation's
    /// scanner: the driver reads hundreds of ids per request, and routes one from most addresses.
    public init?<Text: StringProtocol>(text: Text) {
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0, position = 0
        for byte in text.utf8 {
            defer { position += 1 }
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            guard digits < 32 else { return nil }
            if digits < 16 { high = high << 4 | value } else { low = low << 4 | value }
            digits += 1
        }
        guard digits == 32, position == 36 else { return nil }
        func byte(_ half: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: half >> (56 - 8 * index)) }
        self.init(uuid: (byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                         byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)))
    }
}
