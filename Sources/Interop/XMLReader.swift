import Foundation

/// A non-validating XML 1.0 reader for the files other systems export (Moodle XML, QTI items,
/// tests and manifests): elements with their attributes and lines, text, CDATA, character
/// references and the five predefined entities. It reads one byte at a time, once, with no
/// backtracking and no recursion, so its time is linear in the input and its stack flat:
///
/// - a document type declaration is refused the moment the reader meets it, wherever it is
///   (after a long comment, in a file saved as UTF-16): no entity is ever declared, expanded or
///   fetched, and any other entity reference is an error;
/// - elements may nest at most `maximumDepth` deep, else the file is refused with the line;
/// - line ends are read as XML says (CR LF and CR become LF), and attribute values have their
///   blanks normalised.
struct XMLReader {
    /// Elements nest no deeper than this.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    /// The document's root element, or why the file cannot be read (with its line).
    static func parse(_ data: [UInt8]) throws(FormatError) -> XMLTree.Element {
        let text = try SourceText.decode(data, xml: true)
        var reader = XMLReader(bytes: Self.normalisedLineEnds(Array(text.utf8)))
        return try reader.document()
    }

    /// The name of a document's root element, read past its prolog (declaration, comments,
    /// processing instructions; a document type names it too), in one pass: what the format is
    /// told by. Nil when the text does not start as XML.
    static func rootName(of text: String) -> String? {
        // Windows line ends are blanks too (the reader proper normalises them the same way).
        var reader = XMLReader(bytes: normalisedLineEnds(Array(text.utf8)))
        while reader.index < reader.bytes.count {
            if reader.skipBlanks() { continue }
            if reader.hasPrefix("<?") {
                guard (try? reader.skip(past: "?>", what: "")) != nil else { return nil }
            } else if reader.hasPrefix("<!--") {
                guard (try? reader.skip(past: "-->", what: "")) != nil else { return nil }
            } else if reader.hasPrefix("<!DOCTYPE") {
                reader.advance(by: 9)
                reader.skipBlanks()
                return try? reader.name(of: "a document type")
            } else if reader.hasPrefix("<") {
                reader.advance(by: 1)
                return try? reader.name(of: "an element")
            } else {
                return nil
            }
        }
        return nil
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static func normalisedLineEnds(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(0x0D) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D {
                result.append(0x0A)
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else {
                result.append(bytes[index])
            }
            index += 1
        }
        return result
    }

    private func problem(_ text: String, at line: Int? = nil) -> FormatError {
        FormatError(position: "line \(line ?? self.line)", problem: text)
    }

    // MARK: The document

    private mutating func document() throws(FormatError) -> XMLTree.Element {
        var stack: [XMLTree.Element] = []
        var root: XMLTree.Element?
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let start = line
                let text = try characterData()
                if let open = stack.last {
                    open.append(text: text)
                } else if text.contains(where: { !$0.isWhitespace }) {
                    throw problem("has text outside the document's root element", at: start)
                }
                continue
            }
            if hasPrefix("<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if hasPrefix("<!--") {
                try skip(past: "-->", what: "a comment")
            } else if hasPrefix("<![CDATA[") {
                guard let open = stack.last else { throw problem("has a CDATA section outside the document's root element") }
                advance(by: 9)
                let start = index
                try skip(past: "]]>", what: "a CDATA section")
                open.append(text: String(decoding: bytes[start..<(index - 3)], as: UTF8.self))
            } else if hasPrefix("<!DOCTYPE") || hasPrefix("<!doctype") {
                throw problem("declares a document type, which is refused: no entity or outside content is ever read")
            } else if hasPrefix("<!") {
                throw problem("has a declaration (<!…) that is not a comment or CDATA, which is refused")
            } else if hasPrefix("</") {
                let start = line
                advance(by: 2)
                let name = try self.name(of: "a closing tag")
                skipBlanks()
                try expect(">", in: "the closing tag </\(name)")
                guard let open = stack.popLast() else { throw problem("closes </\(name)>, which was never opened", at: start) }
                guard open.name == name else {
                    throw problem("closes </\(name)> where <\(open.name)> (line \(open.line)) is open", at: start)
                }
            } else {
                let start = line
                advance(by: 1)
                let name = try self.name(of: "an element")
                let attributes = try self.attributes(of: name)
                let element = XMLTree.Element(name: name, attributes: attributes, line: start)
                let empty = hasPrefix("/>")
                try expect(empty ? "/>" : ">", in: "the tag <\(name)>")
                if let open = stack.last {
                    open.append(child: element)
                } else {
                    guard root == nil else { throw problem("has a second root element <\(name)>", at: start) }
                    root = element
                }
                if !empty {
                    guard stack.count < Self.maximumDepth else {
                        throw problem("nests elements more than \(Self.maximumDepth) levels deep, which is refused", at: start)
                    }
                    stack.append(element)
                }
            }
        }
        if let open = stack.last { throw problem("ends before <\(open.name)> (line \(open.line)) is closed") }
        guard let root else { throw problem("has no root element") }
        return root
    }

    // MARK: Pieces

    /// Text up to the next `<`, references decoded.
    private mutating func characterData() throws(FormatError) -> String {
        var result: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            if bytes[index] == UInt8(ascii: "&") {
                result += try reference()
            } else {
                if bytes[index] == 0x0A { line += 1 }
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `&lt;`, `&#65;`, `&#x41;` and the other predefined ones, as UTF-8.
    private mutating func reference() throws(FormatError) -> [UInt8] {
        advance(by: 1)
        var name: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: ";"), name.count < 12 {
            name.append(bytes[index])
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
            throw problem("has an & that does not begin a reference (write &amp; for the character)")
        }
        index += 1
        let text = String(decoding: name, as: UTF8.self)
        switch text {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "apos": return [UInt8(ascii: "'")]
        case "quot": return [UInt8(ascii: "\"")]
        default: break
        }
        if text.hasPrefix("#") {
            let digits = text.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            if let value, value != 0, let scalar = Unicode.Scalar(value) {
                return Array(String(Character(scalar)).utf8)
            }
            throw problem("has the character reference &\(text.prefix(12)); which names no character")
        }
        throw problem("uses the entity &\(text.prefix(12));, which is not defined: no entities are declared or expanded")
    }

    /// A name: letters, digits, `_ : - .` and any non-ASCII character, not starting with a digit.
    private mutating func name(of what: String) throws(FormatError) -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[start]), bytes[start] != UInt8(ascii: "-"),
              bytes[start] != UInt8(ascii: ".") else {
            throw problem("has \(what) without a valid name")
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."): true
        case 0x80...: true
        default: false
        }
    }

    /// The attributes of a start tag, up to its `>` or `/>`.
    private mutating func attributes(of element: String) throws(FormatError) -> [String: String] {
        var attributes: [String: String] = [:]
        while true {
            let blanks = skipBlanks()
            guard index < bytes.count else { throw problem("ends inside the tag <\(element)>") }
            if bytes[index] == UInt8(ascii: ">") || hasPrefix("/>") { return attributes }
            guard blanks else { throw problem("has no blank before an attribute of <\(element)>") }
            let name = try self.name(of: "an attribute of <\(element)>")
            skipBlanks()
            try expect("=", in: "the attribute \(name) of <\(element)>")
            skipBlanks()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw problem("has the attribute \(name) of <\(element)> without a quoted value")
            }
            let quote = bytes[index]
            index += 1
            var value: [UInt8] = []
            while index < bytes.count, bytes[index] != quote {
                switch bytes[index] {
                case UInt8(ascii: "<"): throw problem("has a < inside the value of \(name) of <\(element)>")
                case UInt8(ascii: "&"): value += try reference()
                case 0x0A, 0x09:
                    if bytes[index] == 0x0A { line += 1 }
                    value.append(UInt8(ascii: " "))
                    index += 1
                default:
                    value.append(bytes[index])
                    index += 1
                }
            }
            guard index < bytes.count else { throw problem("ends inside the value of \(name) of <\(element)>") }
            index += 1
            guard attributes.updateValue(String(decoding: value, as: UTF8.self), forKey: name) == nil else {
                throw problem("gives the attribute \(name) of <\(element)> twice")
            }
        }
    }

    // MARK: Moving on

    private func hasPrefix(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = text.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    private mutating func expect(_ text: StaticString, in what: String) throws(FormatError) {
        guard hasPrefix(text) else { throw problem("has \(what) not closed as XML expects") }
        advance(by: text.utf8CodeUnitCount)
    }

    /// Past the next `end`, counting lines; an error naming `what` when there is none.
    private mutating func skip(past end: StaticString, what: String) throws(FormatError) {
        let start = line
        while index < bytes.count {
            if hasPrefix(end) {
                advance(by: end.utf8CodeUnitCount)
                return
            }
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        throw problem("has \(what) that is never closed", at: start)
    }

    @discardableResult
    private mutating func skipBlanks() -> Bool {
        let start = index
        while index < bytes.count, [0x20, 0x09, 0x0A].contains(bytes[index]) {
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        return index > start
    }

    private mutating func advance(by count: Int) {
        for offset in 0..<count where index + offset < bytes.count && bytes[index + offset] == 0x0A { line += 1 }
        index = min(bytes.count, index + count)
    }
}
