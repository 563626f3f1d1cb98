import Foundation

/// Header text as RFC 5322 and RFC 2047 want it: ASCII left as it is (a display name quoted when
/// it holds specials), anything else as `=?UTF-8?B?…?=` words of at most 75 characters, split
/// between characters, never inside one, and folded onto continuation lines.
enum HeaderEncoding {
    /// `Name <address>`, or the bare address when there is no name.
    static func mailbox(name: String, address: MailAddress) -> String {
        let name = name.filter { $0 != "\r" && $0 != "\n" }
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { return address.text }
        let phrase = phrase(name)
        // The address on a line of its own when the last word and it would pass 78 characters.
        let lastLine = phrase.components(separatedBy: "\r\n").last ?? phrase
        return phrase + (lastLine.count + address.text.count + 8 > 78 ? "\r\n <" : " <") + address.text + ">"
    }

    /// A display name: an atom list as it is, quoted when it holds specials, encoded when not ASCII.
    static func phrase(_ name: String) -> String {
        guard name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return encodedWords(name) }
        let specials = Set("()<>[]:;@\\,.\"")
        guard name.contains(where: { specials.contains($0) }) else { return name }
        return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// An unstructured field's value (a subject): ASCII as it is, otherwise encoded words.
    static func unstructured(_ text: String) -> String {
        let text = text.filter { $0 != "\r" && $0 != "\n" }
        guard text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return encodedWords(text) }
        return text
    }

    /// Encoded words of whole characters, each on its own line and at most 60 characters long
    /// (RFC 2047 allows 75; 60 leave room for the field's name on the first line).
    static func encodedWords(_ text: String) -> String {
        let prefix = "=?UTF-8?B?", suffix = "?="
        // 48 characters of base64 are 36 bytes (whole groups of three).
        let budget = 36
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > budget, !chunk.isEmpty {
                words.append(prefix + Data(chunk).base64EncodedString() + suffix)
                chunk = []
            }
            chunk += bytes.prefix(budget)
        }
        if !chunk.isEmpty { words.append(prefix + Data(chunk).base64EncodedString() + suffix) }
        return words.joined(separator: "\r\n ")
    }
}
