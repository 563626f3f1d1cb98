/// What a rich text may hold, checked wherever one is made (the markdown reader, an import, a
/// stored tree read back): the bounds that keep every renderer simple and safe.
public enum RichTextRules {
    /// Lists and quotes inside each other, at most.
    public static let maximumDepth = 8
    /// A source text's length in UTF-8 bytes, at most.
    public static let maximumLength = 64 * 1024
    /// Where the portal's own pictures are served.
    public static let picturePrefix = "/content-images/"

    /// Whether `href` may be a link's target: an absolute `https:` address with a host, no
    /// blanks or control characters (which could end an attribute or hide a scheme).
    public static func isAllowedLink(_ href: String) -> Bool {
        guard href.utf8.count <= 2_048, href.hasPrefix("https://"), href.utf8.count > 8 else { return false }
        let host = href.dropFirst(8).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !host.contains("\\") && href.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "<" && $0 != ">" }
    }

    /// Whether `source` names one of the portal's pictures: `/content-images/<name>`, the name
    /// letters, digits, `-`, `_` and `.`, never `..`.
    public static func isAllowedPicture(_ source: String) -> Bool {
        guard source.hasPrefix(picturePrefix) else { return false }
        let name = source.dropFirst(picturePrefix.count)
        return !name.isEmpty && name.count <= 200 && !name.contains("..") && name.unicodeScalars.allSatisfy { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || "-_.".unicodeScalars.contains(scalar)
        }
    }

    /// A recording's element when `source` names one (by its file's extension, which its bytes
    /// decided when it was stored): `audio` or `video`; nil for a picture.
    public static func recordingElement(_ source: String) -> String? {
        switch source.split(separator: ".").last.map(String.init) {
        case "mp3", "ogg", "m4a": "audio"
        case "mp4", "webm": "video"
        default: nil
        }
    }

    /// The longest base text or reading of a ruby, in characters.
    public static let maximumRuby = 100

    /// What is wrong with a ruby (`{漢字|かんじ}`), or nil: base text and a reading, each of 1 to
    /// `maximumRuby` characters, neither holding a brace, a bar, a backslash or a line break (the
    /// markdown that writes it back could not). The database's `rich_inlines_problem` says the same.
    public static func rubyProblem(base: String, reading: String) -> String? {
        let allowed = { (text: String) in
            (1...maximumRuby).contains(text.unicodeScalars.count) && !text.unicodeScalars.contains { "{|}\\\n\r".unicodeScalars.contains($0) }
                && text.contains { !$0.isWhitespace }
        }
        guard allowed(base), allowed(reading) else {
            return "a ruby needs its base text and its reading, 1 to \(maximumRuby) characters each without braces, bars, backslashes or line breaks: {漢字|かんじ}"
        }
        return nil
    }

    /// Whether `language` may name a code block's language: short, lowercase letters, digits,
    /// `+`, `#` and `-` (`python`, `c++`, `c#`, `objective-c`).
    public static func isAllowedLanguage(_ language: String) -> Bool {
        !language.isEmpty && language.count <= 20 && language.unicodeScalars.allSatisfy { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || "+#-".unicodeScalars.contains(scalar)
        }
    }
}
