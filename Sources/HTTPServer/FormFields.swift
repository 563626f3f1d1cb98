/// Fields of a query string or an `application/x-www-form-urlencoded` body, in order.
public struct FormFields: Sendable, Sequence {
    public private(set) var fields: [(name: String, value: String)] = []

    public init(fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Parses `a=1&b=x+y&c=%E2%9C%93`. Undecodable pairs are dropped (a handler then sees the
    /// field as missing and says which one it needs).
    public init(urlEncoded text: String) {
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(parts[0], plusAsSpace: true),
                  let value = PercentDecoding.decode(parts.count > 1 ? parts[1] : "", plusAsSpace: true)
            else { continue }
            fields.append((name: name, value: value))
        }
    }

    /// The fields as `application/x-www-form-urlencoded` text (a query string too): every byte
    /// but RFC 3986's unreserved ones percent-encoded, so a `+`, `&` or `=` in a value arrives
    /// as itself.
    public var urlEncoded: String {
        fields.map { Self.escaped($0.name) + "=" + Self.escaped($0.value) }.joined(separator: "&")
    }

    private static func escaped(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses a request body, when it is form-encoded.
    public init(body: [UInt8]) {
        self.init(urlEncoded: String(decoding: body, as: UTF8.self))
    }

    /// The first value of `name`.
    public subscript(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// Every value of `name` (checkboxes, multi-selects).
    public func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }
}

/// Percent-decoding (RFC 3986) to UTF-8 text.
public enum PercentDecoding {
    /// Decodes `%XX` escapes; nil when an escape is malformed or the result is not UTF-8.
    public static func decode<Text: StringProtocol>(_ text: Text, plusAsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        var sawEscape = false
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(HTTPSyntax.hexValue),
                      let low = iterator.next().flatMap(HTTPSyntax.hexValue) else { return nil }
                bytes.append(UInt8(high * 16 + low))
                sawEscape = true
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                bytes.append(32)
            } else {
                bytes.append(byte)
            }
        }
        if !sawEscape { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }
}
