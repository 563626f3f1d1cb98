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
    public init?(postgresText text: Substring) { self.init(uuidString: String(text)) }
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

/// Splits the text form of a one-dimensional array (`{a,"b c",NULL}`) into its elements.
enum PostgresArrayParser {
    static func parse(_ text: Substring) -> [String?]? {
        var characters = text.makeIterator()
        guard characters.next() == "{" else { return nil }
        var items: [String?] = []
        var current = ""
        var quoted = false, wasQuoted = false, escaping = false, closed = false
        while let character = characters.next() {
            if closed { return nil }
            if escaping {
                current.append(character)
                escaping = false
            } else if quoted {
                if character == "\\" { escaping = true } else if character == "\"" { quoted = false } else { current.append(character) }
            } else if character == "\"" {
                quoted = true
                wasQuoted = true
            } else if character == "," || character == "}" {
                if character == "}" && items.isEmpty && current.isEmpty && !wasQuoted {
                    closed = true
                    continue
                }
                items.append(!wasQuoted && current == "NULL" ? nil : current)
                current = ""
                wasQuoted = false
                if character == "}" { closed = true }
            } else if character == "{" {
                return nil  // multi-dimensional arrays are not supported
            } else {
                current.append(character)
            }
        }
        return closed ? items : nil
    }
}
