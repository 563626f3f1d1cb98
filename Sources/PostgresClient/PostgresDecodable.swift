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
    static let uuid: UInt32 = 2950, timestamptz: UInt32 = 1184
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
    /// PostgreSQL prints a uuid as 36 lower-case characters, `8-4-4-4-12`; read straight from
    /// the bytes (session pages read hundreds of ids per request).
    public init?(postgresText text: Substring) {
        var bytes = [UInt8](repeating: 0, count: 16)
        var count = 0
        var high: UInt8?
        for (position, byte) in text.utf8.enumerated() {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            guard count < 16 else { return nil }
            if let first = high {
                bytes[count] = first << 4 | value
                count += 1
                high = nil
            } else {
                high = value
            }
        }
        guard count == 16, high == nil else { return nil }
        self.init(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                         bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
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
            guard let item, let value = Element(postgresText: item[...]) else { return nil }
            result.append(value)
        }
        self = result
    }
}

/// Splits the text form of a one-dimensional array (`{a,"b c",NULL}`) into its elements,
/// working on UTF-8 bytes (the delimiters are all ASCII, so multi-byte text passes through).
enum PostgresArrayParser {
    static func parse(_ text: Substring) -> [String?]? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), comma = UInt8(ascii: ",")
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        var bytes = text.utf8.makeIterator()
        guard bytes.next() == open else { return nil }
        var items: [String?] = []
        var current: [UInt8] = []
        var quoted = false, wasQuoted = false, escaping = false, closed = false
        while let byte = bytes.next() {
            if closed { return nil }
            if escaping {
                current.append(byte)
                escaping = false
            } else if quoted {
                if byte == backslash { escaping = true } else if byte == quote { quoted = false } else { current.append(byte) }
            } else if byte == quote {
                quoted = true
                wasQuoted = true
            } else if byte == comma || byte == close {
                if byte == close && items.isEmpty && current.isEmpty && !wasQuoted {
                    closed = true
                    continue
                }
                let isNull = !wasQuoted && current == Array("NULL".utf8)
                items.append(isNull ? nil : String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
                wasQuoted = false
                if byte == close { closed = true }
            } else if byte == open {
                return nil  // multi-dimensional arrays are not supported
            } else {
                current.append(byte)
            }
        }
        return closed ? items : nil
    }
}
