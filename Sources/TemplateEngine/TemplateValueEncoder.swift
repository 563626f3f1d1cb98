import Foundation

/// Builds a `TemplateValue` straight from an `Encodable` page struct, with the same result as
/// encoding it to JSON and reading that back (the conversion every page used to pay twice):
/// absent optionals stay absent, whole numbers are ints, dates are ISO-8601 strings to the
/// second, URLs their absolute string, UUIDs their string.
struct TemplateValueEncoder {
    /// One place in the tree being built; containers write into it by reference.
    final class Slot {
        var value: TemplateValue?
        var fields: [String: Slot]?
        var items: [Slot]?

        /// What was written here; a value that wrote nothing is an empty object (as in JSON).
        func resolved() -> TemplateValue {
            if let value { return value }
            if let items { return .list(items.map { $0.resolved() }) }
            return .object((fields ?? [:]).mapValues { $0.resolved() })
        }
    }

    static func encode<Value: Encodable>(_ value: Value) throws -> TemplateValue {
        let root = Slot()
        try write(value, into: root, codingPath: [])
        return root.resolved()
    }

    /// Writes one value: plain values directly, the rest through their own `encode(to:)`.
    static func write<Value: Encodable>(_ value: Value, into slot: Slot, codingPath: [any CodingKey]) throws {
        switch value {
        case let text as String: slot.value = .string(text)
        case let flag as Bool: slot.value = .bool(flag)
        case let number as Int: slot.value = .int(number)
        case let number as Double: slot.value = wholeOrDouble(number)
        case let number as Float: slot.value = wholeOrDouble(Double(String(number)) ?? Double(number))
        case let number as Decimal: slot.value = wholeOrDouble(Double(number.description) ?? 0)
        case let date as Date: slot.value = .string(date.ISO8601Format())
        case let url as URL: slot.value = .string(url.absoluteString)
        case let data as Data: slot.value = .string(data.base64EncodedString())
        case let number as any BinaryInteger: slot.value = Int(exactly: number).map(TemplateValue.int) ?? .double(Double(number))
        default: try value.encode(to: Encoder(slot: slot, codingPath: codingPath))
        }
    }

    /// A whole number in `Int`'s range reads back from JSON as an int.
    static func wholeOrDouble(_ value: Double) -> TemplateValue {
        if value.isFinite, value == value.rounded(), abs(value) < 9.2e18 { return .int(Int(value)) }
        return .double(value)
    }

    struct Encoder: Swift.Encoder {
        let slot: Slot
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if slot.fields == nil { slot.fields = [:] }
            return KeyedEncodingContainer(KeyedContainer<Key>(slot: slot, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if slot.items == nil { slot.items = [] }
            return UnkeyedContainer(slot: slot, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(slot: slot, codingPath: codingPath)
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let slot: Slot
        var codingPath: [any CodingKey]

        private func child(_ key: Key) -> Slot {
            let child = Slot()
            slot.fields?[key.stringValue] = child
            return child
        }

        mutating func encodeNil(forKey key: Key) throws { child(key).value = .null }

        mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
            try TemplateValueEncoder.write(value, into: child(key), codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            Encoder(slot: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Encoder(slot: child(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Swift.Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

        mutating func superEncoder(forKey key: Key) -> any Swift.Encoder { Encoder(slot: child(key), codingPath: codingPath + [key]) }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let slot: Slot
        var codingPath: [any CodingKey]
        var count: Int { slot.items?.count ?? 0 }

        private func next() -> Slot {
            let child = Slot()
            slot.items?.append(child)
            return child
        }

        mutating func encodeNil() throws { next().value = .null }

        mutating func encode<Value: Encodable>(_ value: Value) throws {
            try TemplateValueEncoder.write(value, into: next(), codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            Encoder(slot: next(), codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            Encoder(slot: next(), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Swift.Encoder { Encoder(slot: next(), codingPath: codingPath) }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let slot: Slot
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { slot.value = .null }

        mutating func encode<Value: Encodable>(_ value: Value) throws {
            try TemplateValueEncoder.write(value, into: slot, codingPath: codingPath)
        }
    }
}
