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

    /// A score, fraction or number: whole when it is whole, else its shortest decimals.
    static func number(_ value: Double) -> String {
        // `Int(exactly:)`, not `Int(_:)`: a whole number beyond Int (or an infinity) must not trap.
        if let whole = Int(exactly: value) { return String(whole) }
        guard value.isFinite else { return "0" }
        // The shortest digits that read back as the same number, never in exponent form.
        let shortest = "\(value)"
        if !shortest.contains("e") { return shortest }
        var fixed = String(format: "%.15f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        return fixed.hasSuffix(".") ? String(fixed.dropLast()) : fixed
    }

    /// Plain text from `text`: with `html`, line-ending tags made line breaks, scripts and
    /// styles dropped, every other tag removed and entities decoded — the portal shows stems and
    /// options as text, so no markup (and no script) is ever carried over. Blank lines and the
    /// blanks around each line go. Linear in the input (`HTMLScanner`).
    static func plain(_ text: String, html: Bool) -> String {
        var text = text
        if html {
            // As a browser renders it: a run of white space in the source (a line break too) is
            // one space, except inside <pre>; <br> and the ends of blocks break the line.
            var reduced = "", preformatted = 0
            for located in HTMLScanner.tokens(text) {
                switch located.token {
                case .text(let piece): reduced += preformatted > 0 ? decodeEntities(piece) : collapsed(decodeEntities(piece))
                case .start(let name, _, _) where name == "br": reduced += "\n"
                case .start(let name, _, _) where name == "pre": preformatted += 1
                case .end(let name) where name == "pre": preformatted = max(0, preformatted - 1); reduced += "\n"
                case .end(let name) where ["p", "div", "li"].contains(name): reduced += "\n"
                case .start, .end: break
                }
            }
            text = reduced
        }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// `text` with every run of white space (spaces, tabs, line breaks) made one space, as XML
    /// text an HTML page shows is rendered: a Moodle answer written over two lines is one line.
    static func collapsed(_ text: String) -> String {
        var result = "", pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = true
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        if pendingSpace { result.append(" ") }
        return result
    }

    /// Why a picture at `source` (not one the file carries) is not taken, and what to do.
    static func outsidePicture(_ source: String, fix: String) -> String {
        source.trimmingCharacters(in: .whitespaces).isEmpty
            ? "a picture with no address (an <img> without src): \(fix)"
            : "a picture at an outside address (\(source.prefix(100))), which the portal does not load: \(fix)"
    }

    /// Why a picture whose file had no words is named by the file's name, and what follows: the
    /// database keeps the question a draft until the picture has words (`question_picture_unnamed`).
    static func unnamedPicture(_ file: String) -> String {
        "its picture has no alt text: its file's name (\(file.prefix(80))) stands in, so the question waits as a draft — give the picture words in the editor, then publish it"
    }

    /// The pictures an HTML fragment shows: each `<img>`'s `src` and `alt`, entities decoded.
    static func images(_ html: String) -> [(source: String, alt: String)] {
        HTMLScanner.tokens(html).compactMap { located in
            guard case .start("img", _, _) = located.token else { return nil }
            return (located.token.attribute("src") ?? "", located.token.attribute("alt") ?? "")
        }
    }

    /// `html` without its `<img>` tags.
    static func removingImages(_ html: String) -> String {
        let bytes = Array(html.utf8)
        var kept: [UInt8] = [], next = 0
        for located in HTMLScanner.tokens(html) {
            guard case .start("img", _, _) = located.token else { continue }
            kept += bytes[next..<located.range.lowerBound]
            next = located.range.upperBound
        }
        kept += bytes[next...]
        return String(decoding: kept, as: UTF8.self)
    }

    /// The first `<pre><code class="language-x">…</code></pre>` of an HTML fragment: the code
    /// (its entities decoded, its markup as written), its language, and the fragment without it.
    /// The block runs from the first `<pre><code>` to the first `</code></pre>` after it.
    static func codeBlock(in html: String) -> (code: String, language: String?, rest: String)? {
        let tokens = HTMLScanner.tokens(html)
        func isBlank(_ index: Int) -> Bool {
            if case .text(let text) = tokens[index].token { return text.allSatisfy(\.isWhitespace) }
            return false
        }
        /// The index of the next token after `index`, past blank text.
        func next(after index: Int) -> Int? {
            var next = index + 1
            while next < tokens.count, isBlank(next) { next += 1 }
            return next < tokens.count ? next : nil
        }
        var opening: (pre: Int, code: Int)?
        for index in tokens.indices {
            if opening == nil {
                if case .start("pre", _, _) = tokens[index].token, let code = next(after: index), case .start("code", _, _) = tokens[code].token {
                    opening = (index, code)
                }
            } else if let (pre, code) = opening, index > code, tokens[index].token == .end(name: "code"), let end = next(after: index),
                      tokens[end].token == .end(name: "pre") {
                let bytes = Array(html.utf8)
                let text = decodeEntities(String(decoding: bytes[tokens[code].range.upperBound..<tokens[index].range.lowerBound], as: UTF8.self))
                let language = (tokens[code].token.attribute("class") ?? "").split(separator: " ").first { $0.hasPrefix("language-") }
                    .map { String($0.dropFirst("language-".count)) }
                let rest = String(decoding: bytes[..<tokens[pre].range.lowerBound] + bytes[tokens[end].range.upperBound...], as: UTF8.self)
                return (text, language, rest)
            }
        }
        return nil
    }

    /// Entities decoded in one pass: `&lt; &gt; &amp; &quot; &apos; &nbsp;` and the other names
    /// HTML editors write, and numeric references; anything else is left as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";"), let character = Self.character(named: after[..<semicolon]) else {
                result += "&"
                rest = after
                continue
            }
            result.append(character)
            rest = after[after.index(after: semicolon)...]
        }
        return result + rest
    }

    private static let namedEntities: [Substring: Character] = [
        "lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'", "nbsp": " ", "ndash": "–", "mdash": "—", "hellip": "…",
        "laquo": "«", "raquo": "»", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "copy": "©", "reg": "®", "deg": "°",
        "times": "×", "divide": "÷", "plusmn": "±", "middot": "·", "euro": "€", "pound": "£", "micro": "µ", "le": "≤", "ge": "≥",
        "ne": "≠", "rarr": "→", "larr": "←", "harr": "↔", "bull": "•", "sup2": "²", "sup3": "³", "frac12": "½", "szlig": "ß",
    ]

    private static func character(named name: Substring) -> Character? {
        if let named = namedEntities[name] { return named }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return value.flatMap { $0 == 0 ? nil : Unicode.Scalar($0) }.map(Character.init)
    }
}
