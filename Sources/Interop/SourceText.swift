import Foundation

/// The characters of an imported file, whatever encoding it was saved in: its byte-order mark
/// decides (UTF-8, UTF-16 or UTF-32, either byte order); without one, an XML file's first
/// bytes and its declaration do (UTF-16 and UTF-32 without a mark, ISO-8859-1, Windows-1252,
/// ASCII); anything else must be UTF-8. Bytes that are not valid in the encoding found are
/// refused rather than read as replacement characters.
enum SourceText {
    /// The encodings a file may be in.
    enum Encoding: Equatable {
        case utf8, utf16LE, utf16BE, utf32LE, utf32BE, latin1, windows1252

        var name: String {
            switch self {
            case .utf8: "UTF-8"
            case .utf16LE: "UTF-16 (little-endian)"
            case .utf16BE: "UTF-16 (big-endian)"
            case .utf32LE: "UTF-32 (little-endian)"
            case .utf32BE: "UTF-32 (big-endian)"
            case .latin1: "ISO-8859-1"
            case .windows1252: "Windows-1252"
            }
        }
    }

    /// `bytes` as text; `xml`: an XML file, whose first bytes and declaration may name its encoding.
    static func decode(_ bytes: [UInt8], xml: Bool) throws(FormatError) -> String {
        let (encoding, skip) = try detect(bytes, xml: xml)
        let body = bytes[skip...]
        let text: String?
        switch encoding {
        case .utf8: text = String(validating: body, as: UTF8.self)
        case .utf16LE, .utf16BE: text = utf16(body, bigEndian: encoding == .utf16BE)
        case .utf32LE, .utf32BE: text = utf32(body, bigEndian: encoding == .utf32BE)
        case .latin1: text = String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
        case .windows1252: text = String(bytes: Array(body), encoding: .windowsCP1252)
        }
        guard let text else {
            throw FormatError(position: "the file", problem: "is not valid \(encoding.name): save it as UTF-8 and import it again")
        }
        return text
    }

    /// The file's encoding and how many bytes of mark precede its text.
    static func detect(_ bytes: [UInt8], xml: Bool) throws(FormatError) -> (Encoding, Int) {
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LE, 4) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BE, 4) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        guard xml else { return (.utf8, 0) }
        // Without a mark, XML's first character is `<` (or a blank), which shows the width.
        if bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) { return (.utf32BE, 0) }
        if bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) { return (.utf32LE, 0) }
        if bytes.starts(with: [0x00, 0x3C]) { return (.utf16BE, 0) }
        if bytes.starts(with: [0x3C, 0x00]) { return (.utf16LE, 0) }
        guard let declared = declaredEncoding(bytes) else { return (.utf8, 0) }
        switch declared.lowercased() {
        case "utf-8", "utf8": return (.utf8, 0)
        case "us-ascii", "ascii": return (.utf8, 0)
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1": return (.latin1, 0)
        case "windows-1252", "cp1252": return (.windows1252, 0)
        default:
            throw FormatError(
                position: "line 1",
                problem: "declares the encoding \(declared.prefix(40)), which is not read: save the file as UTF-8 and import it again")
        }
    }

    /// The `encoding` of an XML declaration at the very start of ASCII-compatible bytes.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        // The declaration is short: it ends at the first `?>`, within its first 200 bytes.
        let head = bytes.prefix(200)
        guard let end = head.indices.first(where: { head[$0] == 0x3F && $0 + 1 < head.endIndex && head[$0 + 1] == 0x3E }) else { return nil }
        let declaration = String(decoding: head[..<end], as: UTF8.self)
        guard let name = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[name.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        return String(validating: units, as: UTF16.self)
    }

    private static func utf32(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String? {
        guard bytes.count % 4 == 0 else { return nil }
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let word = (0..<4).reduce(UInt32(0)) { value, offset in
                let byte = UInt32(bytes[index + (bigEndian ? offset : 3 - offset)])
                return value << 8 | byte
            }
            guard let scalar = Unicode.Scalar(word) else { return nil }
            scalars.append(scalar)
            index += 4
        }
        return String(scalars)
    }
}
