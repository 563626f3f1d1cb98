import Foundation

/// The words of the interface in one language, from `Templates/i18n/{locale}.json`.
///
/// A message is a string with named placeholders (`"{count} questions"`) or, when it depends
/// on a number, an object of plural forms (`{"one": "{count} question", "other": "{count}
/// questions"}`) chosen by the `count` argument and the language's plural rules.
public struct MessageCatalog: Sendable {
    public enum Message: Sendable, Equatable {
        case text(String)
        case plural([String: String])
    }

    /// The locale code (`en`, `ja`, `it` …).
    public let locale: String
    private let messages: [String: Message]
    /// Messages without placeholders, already escaped for HTML: most of a page's words, copied
    /// as they are on every render.
    let plainHTML: [String: [UInt8]]

    public init(locale: String, messages: [String: Message]) {
        self.locale = locale
        self.messages = messages
        plainHTML = Self.plainHTML(messages)
    }

    private static func plainHTML(_ messages: [String: Message]) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for (key, message) in messages {
            guard case .text(let text) = message, !text.contains("{") else { continue }
            var bytes: [UInt8] = []
            HTMLEscaping.append(text, to: &bytes)
            result[key] = bytes
        }
        return result
    }

    /// Reads a catalogue file; nested objects become dotted keys (`{"exam": {"title": …}}` →
    /// `exam.title`), and an object whose keys are all plural categories is a plural message.
    public init(locale: String, json: Data) throws {
        self.locale = locale
        let root = try JSONDecoder().decode(TemplateValue.self, from: json)
        var flat: [String: Message] = [:]
        func walk(_ value: TemplateValue, prefix: String) throws {
            switch value {
            case .string(let text):
                flat[prefix] = .text(text)
            case .object(let fields):
                let categories: Set<String> = ["zero", "one", "two", "few", "many", "other"]
                if !fields.isEmpty, Set(fields.keys).isSubset(of: categories) {
                    guard fields["other"] != nil else {
                        throw CatalogError("\(locale): the plural message \(prefix) lacks an \"other\" form")
                    }
                    flat[prefix] = .plural(fields.mapValues(\.text))
                } else {
                    for (key, child) in fields { try walk(child, prefix: prefix.isEmpty ? key : prefix + "." + key) }
                }
            default:
                throw CatalogError("\(locale): \(prefix) is neither a message nor a group of messages")
            }
        }
        try walk(root, prefix: "")
        messages = flat
        plainHTML = Self.plainHTML(flat)
    }

    /// Every key, for checking that catalogues agree.
    public var keys: Set<String> { Set(messages.keys) }

    func message(_ key: String) -> Message? { messages[key] }

    /// The message with its placeholders filled; nil when the key is unknown.
    public func format(_ key: String, _ arguments: [String: String], count: Double? = nil) -> String? {
        guard let message = messages[key] else { return nil }
        let pattern: String
        switch message {
        case .text(let text): pattern = text
        case .plural(let forms):
            let category = PluralRules.category(for: count ?? 0, locale: locale)
            pattern = forms[category] ?? forms["other"]!
        }
        return Self.fill(pattern, arguments)
    }

    static func fill(_ pattern: String, _ arguments: [String: String]) -> String {
        guard pattern.utf8.contains(UInt8(ascii: "{")) else { return pattern }
        var result = ""
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
            let name = String(rest[afterOpen..<close])
            result += arguments[name] ?? "{\(name)}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}

/// A catalogue file that cannot be used.
public struct CatalogError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// CLDR plural categories for the portal's languages (CLDR 42+ cardinal rules, whole numbers
/// and decimals as the catalogue receives them).
public enum PluralRules {
    /// The categories a language's catalogue gives each plural message.
    public static func categories(locale: String) -> Set<String> {
        switch language(locale) {
        case "ja", "zh", "th", "ko": ["other"]
        case "es", "it", "fr", "pt": ["one", "many", "other"]
        default: ["one", "other"]
        }
    }

    public static func category(for number: Double, locale: String) -> String {
        let isWhole = number == number.rounded()
        // Spanish, Italian and French say "1 000 000 de preguntas": a whole number of millions is "many".
        let isMillions = isWhole && number != 0 && number.truncatingRemainder(dividingBy: 1_000_000) == 0
        switch language(locale) {
        case "ja", "zh", "th", "ko":
            return "other"
        case "fr":
            if number >= 0 && number < 2 { return "one" }
            return isMillions ? "many" : "other"
        case "es", "it", "pt":
            if number == 1 { return "one" }
            return isMillions ? "many" : "other"
        default:
            // en, de …: "one" for exactly 1 (integers), "other" otherwise.
            return number == 1 ? "one" : "other"
        }
    }

    private static func language(_ locale: String) -> String {
        locale.split(separator: "-").first.map(String.init) ?? locale
    }
}
