/// A SQL statement and its parameters. Values are never spliced into the text: every
/// interpolated value becomes a `$n` placeholder bound separately.
///
///     let sql: SQL = "SELECT title FROM exams WHERE slug = \(slug) AND region_id = \(regionID)"
///     // text: "SELECT title FROM exams WHERE slug = $1 AND region_id = $2"
public struct SQL: Sendable, ExpressibleByStringInterpolation {
    /// The statement text with `$1…$n` placeholders.
    public private(set) var text: String
    /// The parameters in placeholder order; `nil` is SQL NULL.
    public private(set) var bindings: [PostgresBinding?]
    /// Whether the connection should prepare this statement once and reuse it.
    public private(set) var isPrepared = false

    public init(stringLiteral value: String) {
        text = value
        bindings = []
    }

    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
        bindings = stringInterpolation.bindings
    }

    /// This text with the parameters of `other`, for wrapping a statement in a fixed prefix
    /// such as `EXPLAIN`: `SQL(stringLiteral: "EXPLAIN " + query.text).withBindings(of: query)`.
    public func withBindings(of other: SQL) -> SQL {
        var copy = self
        copy.bindings = other.bindings
        return copy
    }

    /// The same statement, prepared once per connection and executed by name afterwards.
    /// Use it for hot queries; the statement text is the cache key.
    public func prepared() -> SQL {
        var copy = self
        copy.isPrepared = true
        return copy
    }

    /// Builds the placeholders of a statement as it is interpolated.
    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        var bindings: [PostgresBinding?] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 3)
            bindings.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Binds a value as the next parameter.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value) {
            bindings.append(value.postgresBinding)
            text += "$\(bindings.count)"
        }

        /// Binds an optional value; `nil` is SQL NULL.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            bindings.append(value?.postgresBinding)
            text += "$\(bindings.count)"
        }

        /// Inserts another statement's text (a sub-query, a CTE's body) with its parameters,
        /// renumbered to follow this statement's. Its text must hold `$` only in placeholders.
        public mutating func appendInterpolation(fragment: SQL) {
            let offset = bindings.count
            bindings += fragment.bindings
            var digits = ""
            var afterDollar = false
            func flush() {
                if afterDollar { text += digits.isEmpty ? "$" : "$\(Int(digits)! + offset)" }
                digits = ""
                afterDollar = false
            }
            for character in fragment.text {
                if afterDollar, character.isASCII, character.isNumber {
                    digits.append(character)
                    continue
                }
                flush()
                if character == "$" { afterDollar = true } else { text.append(character) }
            }
            flush()
        }

        /// Inserts a checked identifier (a database or role name), quoted.
        public mutating func appendInterpolation(identifier: PostgresIdentifier) {
            text += identifier.quoted
        }
    }
}

/// A parameter in PostgreSQL's text format.
public struct PostgresBinding: Sendable, Equatable {
    /// The value as PostgreSQL reads it in text format.
    public var text: String
    public init(text: String) { self.text = text }
}

/// A name that can safely stand in SQL text where a parameter cannot (`CREATE DATABASE x`):
/// only lower-case letters, digits and underscores, starting with a letter or underscore.
public struct PostgresIdentifier: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    /// Returns nil unless `name` matches `[a-z_][a-z0-9_]{0,62}`.
    public init?(_ name: String) {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 63,
              first == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
              bytes.allSatisfy({ $0 == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                  || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        self.name = name
    }

    var quoted: String { "\"\(name)\"" }
    public var description: String { name }
}
