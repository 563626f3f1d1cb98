import Foundation

/// A Swift type a column can be read as. Reading checks the column's type first, so reading a
/// `text` column as `Int` is an error naming the column, not a silent zero.
public protocol PostgresDecodable {
    /// Whether a column of this PostgreSQL type (by OID) may be read as this Swift type.
    static func accepts(typeOID: UInt32) -> Bool
    /// Parses the text form; nil when the text is not a valid value.
    init?(postgresText text: Substring)
}

/// The type OIDs this client knows by number (they are fixed in every PostgreSQL installation).
enum PostgresOID {
    static let bool: UInt32 = 16
    static let int8: UInt32 = 20, int2: UInt32 = 21, int4: UInt32 = 23, oid: UInt32 = 26
    static let json: UInt32 = 114, jsonb: UInt32 = 3802
    static let float4: UInt32 = 700, float8: UInt32 = 701, numeric: UInt32 = 1700
    static let uuid: UInt32 = 2950, timestamptz: UInt32 = 1184, bytea: UInt32 = 17
    static let integers: Set<UInt32> = [int2, int4, int8, oid]
    static let intArrays: Set<UInt32> = [1005, 1007, 1016, 1028]
    static let textArrays: Set<UInt32> = [1009, 1015, 1014, 1003]
    static let uuidArray: UInt32 = 2951
}

extension String: PostgresDecodable {
    /// Any column can be read as its text form.
    public static func accepts(typeOID: UInt32) -> Bool { true }
    public init?(postgresText text: Substring) { self = String(text) }
}

extension Int: PostgresDecodable {
    public static func accepts(typeOID: UInt32) -> Bool { PostgresOID.integers.contains(typeOID) }
    public init?(postgresText text: Substring) { self.init(text) }
}

extension Int64: PostgresDecodable {
    public static func accepts(typeOID: UInt32) -> Bool { PostgresOID.integers.contains(typeOID) }
    public init?(postgresText text: Substring) { self.init(text) }
}

extension Int32: PostgresDecodable {
    public static func accepts(typeOID: UInt32) -> Bool {
        typeOID == PostgresOID.int2 || typeOID == PostgresOID.int4
    }
    public init?(postgresText text: Substring) { self.init(text) }
}

extension Double: PostgresDecodable {
    public static func accepts(typeOID: UInt32) -> Bool {
        [PostgresOID.float4, PostgresOID.float8, PostgresOID.numeric].contains(typeOID)
            || PostgresOID.integers.contains(typeOID)
    }
    public init?(postgresText text: Substring) {
        switch text {
        case "NaN": self = .nan
        case "Infinity": self = .infinity
        case "-Infinity": self = -.infinity
        default: self.init(text)
        }
    }
}

extension Bool: PostgresDecodable {
    public static func accepts(typeOID: UInt32) -> Bool { typeOID == PostgresOID.bool }
    public init?(postgresText text: Substring) {
        switch text {
        case "t": self = true
        case "f": self = false
        default: return nil
        }
    }
}

extension UUID: PostgresDecodable {
    public static func accepts(typeOID: UInt32) -> Bool { typeOID == PostgresOID.uuid }
    /// PostgreSQL prints a uuid as 36 characters, `8-4-4-4-12`; read straight from the bytes
    /// into two 64-bit halves (session pages read hundreds of ids per request).
    public init?(postgresText text: Substring) {
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
            if digits < 16 { high = high << 4 | value } else { low = low << 4 | value }
            digits += 1
        }
        guard digits == 32, position == 36 else { return nil }
        func byte(_ half: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: half >> (56 - 8 * index)) }
        self.init(uuid: (byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                         byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)))
    }
}

extension Date: PostgresDecodable {
    public static func accepts(typeOID: UInt32) -> Bool { typeOID == PostgresOID.timestamptz }
    public init?(postgresText text: Substring) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self = date
    }
}

extension PostgresJSON: PostgresDecodable {
    public static func accepts(typeOID: UInt32) -> Bool {
        typeOID == PostgresOID.json || typeOID == PostgresOID.jsonb
    }
    public init?(postgresText text: Substring) { self.init(text: String(text)) }

    /// Decodes the document with `JSONDecoder`.
    public func decoded<Value: Decodable>(as type: Value.Type) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }
}

extension Array: PostgresDecodable where Element: PostgresArrayElement {
    public static func accepts(typeOID: UInt32) -> Bool {
        switch Element.self {
        case is String.Type: PostgresOID.textArrays.contains(typeOID)
        case is UUID.Type: typeOID == PostgresOID.uuidArray
        default: PostgresOID.intArrays.contains(typeOID)
        }
    }

    /// Reads a one-dimensional array; a NULL element makes the whole value unreadable here.
    public init?(postgresText text: Substring) {
        guard let items = PostgresArrayParser.parse(text) else { return nil }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard let item, let value = Element(postgresText: item) else { return nil }
            result.append(value)
        }
        self = result
    }
}

/// Splits the text form of a one-dimensional array (`{a,"b c",NULL}`) into its elements:
/// slices of the text itself, except where an element has escapes to undo. The delimiters are
/// all ASCII, so the scan runs over UTF-8 bytes and multi-byte text passes through whole.
enum PostgresArrayParser {
    static func parse(_ text: Substring) -> [Substring?]? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), comma = UInt8(ascii: ",")
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        let utf8 = text.utf8, end = utf8.endIndex
        var index = utf8.startIndex
        guard index < end, utf8[index] == open else { return nil }
        index = utf8.index(after: index)
        if index < end, utf8[index] == close { return utf8.index(after: index) == end ? [] : nil }
        var items: [Substring?] = []
        while index < end {
            if utf8[index] == quote {
                let start = utf8.index(after: index)
                var cursor = start
                var unescaped: [UInt8]?
                while true {
                    guard cursor < end else { return nil }
                    let byte = utf8[cursor]
                    if byte == quote { break }
                    if byte == backslash {
                        if unescaped == nil { unescaped = Array(utf8[start..<cursor]) }
                        cursor = utf8.index(after: cursor)
                        guard cursor < end else { return nil }
                        unescaped!.append(utf8[cursor])
                    } else {
                        unescaped?.append(byte)
                    }
                    cursor = utf8.index(after: cursor)
                }
                items.append(unescaped.map { String(decoding: $0, as: UTF8.self)[...] } ?? Substring(utf8[start..<cursor]))
                index = utf8.index(after: cursor)
            } else {
                let start = index
                while index < end, utf8[index] != comma, utf8[index] != close {
                    if utf8[index] == open || utf8[index] == quote { return nil }  // nested arrays are not supported
                    index = utf8.index(after: index)
                }
                let element = Substring(utf8[start..<index])
                items.append(element == "NULL" ? nil : element)
            }
            guard index < end else { return nil }
            if utf8[index] == close { return utf8.index(after: index) == end ? items : nil }
            guard utf8[index] == comma else { return nil }
            index = utf8.index(after: index)
        }
        return nil
    }
}
