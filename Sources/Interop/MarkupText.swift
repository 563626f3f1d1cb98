import Foundation

/// Text between the portal and other systems' markup: escaped for the XML the exporters write,
/// reduced to plain text from the HTML the importers read.
enum MarkupText {
    /// `&`, `<`, `>` and `"` escaped: safe in text and in quoted attributes.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Text as HTML: escaped, its line breaks as `lineBreak`.
    static func html(_ text: String, lineBreak: String = "<br>") -> String { escape(text).replacingOccurrences(of: "\n", with: lineBreak) }

    /// A score or fraction: whole when it is whole, else five decimals.
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.5f", value)
    }

    /// Plain text from `text`: with `html`, line-ending tags made line breaks, scripts dropped,
    /// every other tag removed and entities decoded — the portal shows stems and options as
    /// text, so no markup (and no script) is ever carried over. Blank lines and the blanks
    /// around each line go.
    static func plain(_ text: String, html: Bool) -> String {
        var text = text
        if html {
            text = text.replacingOccurrences(of: #"<\s*(br|/p|/div|/li)\s*/?>"#, with: "\n", options: [.regularExpression, .caseInsensitive])
            text = text.replacingOccurrences(of: #"<script[\s\S]*?</script>"#, with: "", options: [.regularExpression, .caseInsensitive])
            text = decodeEntities(text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression))
        }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// The pictures an HTML fragment shows: each `<img>`'s `src` and `alt`, entities decoded.
    static func images(_ html: String) -> [(source: String, alt: String)] {
        var found: [(source: String, alt: String)] = []
        var rest = html[...]
        while let tag = rest.range(of: #"<img\b[^>]*>"#, options: [.regularExpression, .caseInsensitive]) {
            let element = String(rest[tag])
            func attribute(_ name: String) -> String {
                guard let match = element.range(of: name + #"\s*=\s*("[^"]*"|'[^']*')"#, options: [.regularExpression, .caseInsensitive]) else { return "" }
                let quoted = element[match].drop { $0 != "\"" && $0 != "'" }
                return decodeEntities(String(quoted.dropFirst().dropLast()))
            }
            found.append((attribute(#"\bsrc"#), attribute(#"\balt"#)))
            rest = rest[tag.upperBound...]
        }
        return found
    }

    /// The named entities HTML editors write, and `&amp;` last.
    static func decodeEntities(_ text: String) -> String {
        var text = text
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }

    /// An XML document decoded to text (whatever encoding it was saved in), as UTF-8 bytes whose
    /// declaration says so.
    static func utf8XML(_ text: String) -> Data {
        Data(text.replacingOccurrences(of: #"(<\?xml[^>]*encoding=)["'][^"']*["']"#, with: "$1\"UTF-8\"", options: .regularExpression).utf8)
    }
}
