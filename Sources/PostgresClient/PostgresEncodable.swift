import Foundation
import Identifiers

/// A Swift value that can be bound as a statement parameter.
public protocol PostgresEncodable: Sendable {
    /// The value in PostgreSQL's text format.
    var postgresBinding: PostgresBinding { get }
}

extension String: PostgresEncodable {
    public var postgresBinding: PostgresBinding { PostgresBinding(text: self) }
}

extension Substring: PostgresEncodable {
    public var postgresBinding: PostgresBinding { PostgresBinding(text: String(self)) }
}

extension Int: PostgresEncodable {
    public var postgresBinding: PostgresBinding { PostgresBinding(text: String(self)) }
}

extension Int32: PostgresEncodable {
    public var postgresBinding: PostgresBinding { PostgresBinding(text: String(self)) }
}

extension Int64: PostgresEncodable {
    public var postgresBinding: PostgresBinding { PostgresBinding(text: String(self)) }
}

extension Double: PostgresEncodable {
    public var postgresBinding: PostgresBinding {
        if isNaN { return PostgresBinding(text: "NaN") }
        if isInfinite { return PostgresBinding(text: self > 0 ? "Infinity" : "-Infinity") }
        return PostgresBinding(text: "\(self)")
    }
}

extension Bool: PostgresEncodable {
    public var postgresBinding: PostgresBinding { PostgresBinding(text: self ? "true" : "false") }
}

extension UUID: PostgresEncodable {
    public var postgresBinding: PostgresBinding { PostgresBinding(text: lowercasedText) }
}

extension Date: PostgresEncodable {
    /// Microsecond precision in UTC, as `timestamptz` stores it.
    public var postgresBinding: PostgresBinding { PostgresBinding(text: PostgresTimestamp.format(self)) }
}

extension Array: PostgresEncodable where Element: PostgresArrayElement {
    /// A one-dimensional array literal with every element quoted: `{"a","b\"c"}`.
    public var postgresBinding: PostgresBinding {
        var text = "{"
        for (index, element) in enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for character in element.postgresBinding.text {
                if character == "\"" || character == "\\" { text += "\\" }
                text.append(character)
            }
            text += "\""
        }
        text += "}"
        return PostgresBinding(text: text)
    }
}

/// An element type allowed in array parameters and array columns.
public protocol PostgresArrayElement: PostgresEncodable, PostgresDecodable {}
extension String: PostgresArrayElement {}
extension Int: PostgresArrayElement {}
extension Int64: PostgresArrayElement {}
extension Int32: PostgresArrayElement {}
extension UUID: PostgresArrayElement {}

/// A JSON document bound as text; cast it in SQL (`\(json)::jsonb`) where the type is not inferred.
public struct PostgresJSON: PostgresEncodable, Equatable {
    /// The document's UTF-8 text.
    public var text: String

    public init(text: String) { self.text = text }

    /// Encodes a value with `JSONEncoder` (sorted keys, so equal values give equal documents).
    public init<Value: Encodable>(encoding value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        text = String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    public var postgresBinding: PostgresBinding { PostgresBinding(text: text) }
}
