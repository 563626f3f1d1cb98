import Foundation
import Identifiers

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
    /// PostgreSQL prints a uuid as 36 characters, `8-4-4-4-12` (Identifiers reads them).
    public init?(postgresText text: Substring) {
        self.init(text: text)
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
    /// The elements of a one-dimensional array's text form (nil for an element printed NULL),
    /// or nil when the text is not one. Scanned over the contiguous bytes by offset: session
    /// rows carry arrays of a hundred ids, and stepping a Substring's UTF-8 view index by index
    /// cost more than the rest of decoding them.
    static func parse(_ text: Substring) -> [Substring?]? {
        if let parsed = text.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0, of: text) }) { return parsed }
        var copy = String(text)
        copy.makeContiguousUTF8()
        return parse(copy[...])
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, of text: Substring) -> [Substring?]? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), comma = UInt8(ascii: ",")
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        let end = bytes.count
        func slice(_ from: Int, _ to: Int) -> Substring {
            let utf8 = text.utf8
            let lower = utf8.index(utf8.startIndex, offsetBy: from), upper = utf8.index(lower, offsetBy: to - from)
            return Substring(utf8[lower..<upper])
        }
        guard end > 0, bytes[0] == open else { return nil }
        var index = 1
        if index < end, bytes[index] == close { return index + 1 == end ? [] : nil }
        var items: [Substring?] = []
        while index < end {
            if bytes[index] == quote {
                let start = index + 1
                var cursor = start
                var unescaped: [UInt8]?
                while true {
                    guard cursor < end else { return nil }
                    let byte = bytes[cursor]
                    if byte == quote { break }
                    if byte == backslash {
                        if unescaped == nil { unescaped = Array(bytes[start..<cursor]) }
                        cursor += 1
                        guard cursor < end else { return nil }
                        unescaped!.append(bytes[cursor])
                    } else {
                        unescaped?.append(byte)
                    }
                    cursor += 1
                }
                items.append(unescaped.map { String(decoding: $0, as: UTF8.self)[...] } ?? slice(start, cursor))
                index = cursor + 1
            } else {
                let start = index
                while index < end, bytes[index] != comma, bytes[index] != close {
                    if bytes[index] == open || bytes[index] == quote { return nil }  // nested arrays are not supported
                    index += 1
                }
                let isNull = index - start == 4 && bytes[start] == UInt8(ascii: "N") && bytes[start + 1] == UInt8(ascii: "U")
                    && bytes[start + 2] == UInt8(ascii: "L") && bytes[start + 3] == UInt8(ascii: "L")
                items.append(isNull ? nil : slice(start, index))
            }
            guard index < end else { return nil }
            if bytes[index] == close { return index + 1 == end ? items : nil }
            guard bytes[index] == comma else { return nil }
            index += 1
        }
        return nil
    }
}
