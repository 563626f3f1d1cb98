/// The tokens of an HTML fragment as other systems store question text (Moodle's `<text>`, a
/// QTI item's markup as text): text, start tags with their attributes, end tags. Comments,
/// declarations and the content of `<script>` and `<style>` are left out. One pass over the
/// bytes with no backtracking, so its time is linear in the input whatever it holds (an
/// unclosed `<script>`, thousands of `<`): the scanner reads, it never matches patterns.
struct HTMLScanner {
    enum Token: Equatable {
        /// Text as written (entities not yet decoded: `MarkupText.decodeEntities`).
        case text(String)
        /// A start tag: its name in lower case, its attributes (names in lower case, values
        /// as written between their quotes) and whether it closed itself (`<br/>`).
        case start(name: String, attributes: [(name: String, value: String)], selfClosing: Bool)
        case end(name: String)

        static func == (left: Token, right: Token) -> Bool {
            switch (left, right) {
            case (.text(let a), .text(let b)): a == b
            case (.end(let a), .end(let b)): a == b
            case (.start(let a, let x, let s), .start(let b, let y, let t)):
                a == b && s == t && x.map(\.name) == y.map(\.name) && x.map(\.value) == y.map(\.value)
            default: false
            }
        }

        /// The value of a start tag's attribute `name` (lower case), entities decoded.
        func attribute(_ name: String) -> String? {
            guard case .start(_, let attributes, _) = self, let found = attributes.first(where: { $0.name == name }) else { return nil }
            return MarkupText.decodeEntities(found.value)
        }
    }

    /// A token and the bytes of the fragment it spans (UTF-8 offsets).
    struct Located {
        var token: Token
        var range: Range<Int>
    }

    /// Every token of `html`, in order.
    static func tokens(_ html: String) -> [Located] {
        var scanner = HTMLScanner(bytes: Array(html.utf8))
        return scanner.scan()
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func scan() -> [Located] {
        var tokens: [Located] = []
        var textStart = 0
        func flushText(upTo end: Int) {
            if end > textStart { tokens.append(Located(token: .text(String(decoding: bytes[textStart..<end], as: UTF8.self)), range: textStart..<end)) }
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            let start = index, next = bytes[index + 1]
            if Self.isLetter(next) || (next == UInt8(ascii: "/") && index + 2 < bytes.count && Self.isLetter(bytes[index + 2])) {
                flushText(upTo: start)
                let token = tag()
                tokens.append(Located(token: token, range: start..<index))
                textStart = index
                // The content of a script or style is never text.
                if case .start(let name, _, false) = token, name == "script" || name == "style" {
                    skipRawText(until: name)
                    textStart = index
                }
            } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                flushText(upTo: start)
                skipComment()
                textStart = index
            } else {
                index += 1
            }
        }
        flushText(upTo: bytes.count)
        return tokens
    }

    /// A start or end tag from its `<`; a tag that never ends takes the rest of the fragment.
    private mutating func tag() -> Token {
        index += 1
        let closing = bytes[index] == UInt8(ascii: "/")
        if closing { index += 1 }
        let name = word()
        var attributes: [(name: String, value: String)] = []
        var selfClosing = false
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
            let byte = bytes[index]
            if Self.isBlank(byte) { index += 1; continue }
            if byte == UInt8(ascii: "/") { selfClosing = true; index += 1; continue }
            selfClosing = false
            let attribute = word()
            if attribute.isEmpty { index += 1; continue }
            while index < bytes.count, Self.isBlank(bytes[index]) { index += 1 }
            var value = ""
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count, Self.isBlank(bytes[index]) { index += 1 }
                value = attributeValue()
            }
            attributes.append((attribute, value))
        }
        index = min(bytes.count, index + 1)
        return closing ? .end(name: name) : .start(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    /// A tag or attribute name, in lower case.
    private mutating func word() -> String {
        let start = index
        while index < bytes.count, !Self.isBlank(bytes[index]), ![UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "=")].contains(bytes[index]) {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
    }

    private mutating func attributeValue() -> String {
        guard index < bytes.count else { return "" }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != quote { index += 1 }
            let value = String(decoding: bytes[start..<index], as: UTF8.self)
            index = min(bytes.count, index + 1)
            return value
        }
        let start = index
        while index < bytes.count, !Self.isBlank(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Past `</name` and its `>` (any case), or to the end when it never comes.
    private mutating func skipRawText(until name: String) {
        let closing = Array(("</" + name).utf8)
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), index + closing.count <= bytes.count,
               zip(bytes[index..<(index + closing.count)], closing).allSatisfy({ Self.lower($0) == $1 }) {
                _ = tag()
                return
            }
            index += 1
        }
    }

    /// Past a comment (`<!-- … -->`) or a declaration or instruction (`<!…>`, `<?…>`).
    private mutating func skipComment() {
        let isComment = index + 3 < bytes.count && bytes[index + 2] == UInt8(ascii: "-") && bytes[index + 3] == UInt8(ascii: "-")
        index += isComment ? 4 : 2
        while index < bytes.count {
            if isComment {
                if bytes[index] == UInt8(ascii: "-"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "-"), bytes[index + 2] == UInt8(ascii: ">") {
                    index += 3
                    return
                }
            } else if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return
            }
            index += 1
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
