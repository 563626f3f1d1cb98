import Foundation

/// Renders compiled templates into bytes. One renderer serves one render call.
struct Renderer {
    let templates: [String: [TemplateNode]]
    let catalog: MessageCatalog
    let now: Date
    let strict: Bool
    var fragments: [String: Fragment] = [:]
    var store: (any FragmentStore)? = nil
    var reads = FragmentReads()

    func render(_ name: String, _ value: TemplateValue) throws(TemplateError) -> [UInt8] {
        guard let nodes = templates[name] else {
            throw TemplateError(template: name, line: 0, column: 0, message: "no such template")
        }
        var output: [UInt8] = []
        output.reserveCapacity(16 * 1024)
        var stack = [value]
        try render(nodes, template: name, stack: &stack, overrides: [:], into: &output, depth: 0)
        return output
    }

    private func render(
        _ nodes: [TemplateNode], template: String, stack: inout [TemplateValue], overrides: [String: [TemplateNode]],
        into output: inout [UInt8], depth: Int
    ) throws(TemplateError) {
        if depth > 64 { throw TemplateError(template: template, line: 0, column: 0, message: "partials or layouts nest more than 64 deep") }
        for node in nodes {
            switch node {
            case .text(let bytes):
                output += bytes
            case .variable(let path, let escaped, let position):
                guard let value = lookup(path, in: stack) else {
                    if strict { throw missing(path, template, position) }
                    continue
                }
                if escaped { HTMLEscaping.append(value.text, to: &output) } else { output += value.text.utf8 }
            case .section(let path, let inverted, let children, _):
                let value = lookup(path, in: stack) ?? .null
                if inverted {
                    if !value.isTruthy { try render(children, template: template, stack: &stack, overrides: overrides, into: &output, depth: depth) }
                    continue
                }
                guard value.isTruthy else { continue }
                if case .list(let items) = value {
                    for item in items {
                        stack.append(item)
                        try render(children, template: template, stack: &stack, overrides: overrides, into: &output, depth: depth)
                        stack.removeLast()
                    }
                } else {
                    stack.append(value)
                    try render(children, template: template, stack: &stack, overrides: overrides, into: &output, depth: depth)
                    stack.removeLast()
                }
            case .partial(let name, let position):
                guard let partial = templates[name] else { throw TemplateError(template: template, line: position.line, column: position.column, message: "no partial named \(name)") }
                try render(partial, template: name, stack: &stack, overrides: [:], into: &output, depth: depth + 1)
            case .parent(let name, let blocks, let position):
                guard let parent = templates[name] else { throw TemplateError(template: template, line: position.line, column: position.column, message: "no layout named \(name)") }
                // Blocks given further down the chain (by the child being rendered) win.
                let merged = blocks.merging(overrides) { _, nearer in nearer }
                try render(parent, template: name, stack: &stack, overrides: merged, into: &output, depth: depth + 1)
            case .block(let name, let defaultContent):
                try render(overrides[name] ?? defaultContent, template: template, stack: &stack, overrides: overrides, into: &output, depth: depth)
            case .fragment(let name, let children, let position):
                guard let fragment = fragments[name] else {
                    if strict { throw TemplateError(template: template, line: position.line, column: position.column, message: "no fragment named \(name) was given") }
                    continue
                }
                // One key per section: a fragment may stand in several places of a page.
                let key = "\(template):\(position.line):\(position.column)|\(name)|\(catalog.locale)|\(fragment.key)"
                let locale = lookup(["locale"], in: stack) ?? .string(catalog.locale)
                let make = { () throws -> [UInt8] in
                    let value = try reads.value(of: name, fragment)
                    // Only the fragment's own value (and the page's locale) is in scope.
                    var isolated: [TemplateValue] = [.object(["locale": locale]), value]
                    var bytes: [UInt8] = []
                    try render(children, template: template, stack: &isolated, overrides: [:], into: &bytes, depth: depth)
                    return bytes
                }
                do {
                    output += try store.map { try $0.fragment(key, render: make) } ?? make()
                } catch let error as TemplateError where reads.error == nil {
                    throw error
                } catch {
                    reads.record(error)
                    throw TemplateError(template: template, line: position.line, column: position.column, message: "the data of fragment \(name) could not be read")
                }
            case .message(let key, let arguments, _) where arguments.isEmpty && catalog.plainHTML[key] != nil:
                output += catalog.plainHTML[key]!
            case .message(let key, let arguments, let position):
                var values: [String: String] = [:]
                var count: Double?
                for (name, argument) in arguments {
                    switch argument {
                    case .literal(let text): values[name] = text
                    case .path(let path):
                        guard let value = lookup(path, in: stack) else {
                            if strict { throw missing(path, template, position) }
                            continue
                        }
                        switch value {
                        case .int(let number):
                            values[name] = NumberFormatting.grouped(number, locale: catalog.locale)
                            if name == "count" { count = Double(number) }
                        case .double(let number):
                            values[name] = value.text
                            if name == "count" { count = number }
                        default:
                            values[name] = value.text
                        }
                    }
                }
                guard let text = catalog.format(key, values, count: count) else {
                    if strict { throw TemplateError(template: template, line: position.line, column: position.column, message: "no message \"\(key)\" in the \(catalog.locale) catalogue") }
                    HTMLEscaping.append(key, to: &output)
                    continue
                }
                HTMLEscaping.append(text, to: &output)
            case .relativeTime(let path, let position):
                guard let value = lookup(path, in: stack), case .string(let text) = value, let date = ISO8601.parse(text) else {
                    if strict { throw TemplateError(template: template, line: position.line, column: position.column, message: "\(path.joined(separator: ".")) is not an ISO-8601 date") }
                    continue
                }
                HTMLEscaping.append(RelativeTime.describe(date, now: now, catalog: catalog), to: &output)
            case .number(let path, let position):
                guard let value = lookup(path, in: stack), case .int(let number) = value else {
                    if strict { throw TemplateError(template: template, line: position.line, column: position.column, message: "\(path.joined(separator: ".")) is not a whole number") }
                    continue
                }
                output += NumberFormatting.grouped(number, locale: catalog.locale).utf8
            }
        }
    }

    /// Mustache lookup: the first name is searched from the innermost context outwards, the
    /// rest inside what it found. `.` is the current item.
    private func lookup(_ path: [String], in stack: [TemplateValue]) -> TemplateValue? {
        if path == ["."] { return stack.last }
        for context in stack.reversed() {
            guard var value = context.member(path[0]) else { continue }
            for name in path.dropFirst() {
                guard let next = value.member(name) else { return nil }
                value = next
            }
            return value
        }
        return nil
    }

    private func missing(_ path: [String], _ template: String, _ position: SourcePosition) -> TemplateError {
        TemplateError(template: template, line: position.line, column: position.column, message: "missing variable \(path.joined(separator: "."))")
    }
}

/// HTML escaping for text and quoted attribute values (the templates' `{{…}}`, and markup the
/// portal writes itself, such as its SVG charts).
public enum HTMLEscaping {
    /// `text` escaped for HTML text or a quoted attribute value.
    public static func escaped(_ text: String) -> String {
        var output: [UInt8] = []
        append(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        // Runs without a special character are copied whole.
        text.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let replacement: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                output.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
                start = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }
}

/// Numbers with the locale's grouping separator: 5,000 (en, ja, zh, th) or 5.000 (it, es).
public enum NumberFormatting {
    public static func grouped(_ number: Int, locale: String) -> String {
        let separator: String
        switch locale.split(separator: "-").first ?? "" {
        case "it", "es", "de", "pt": separator = "."
        case "fr": separator = "\u{202F}"
        default: separator = ","
        }
        let digits = String(number.magnitude)
        if digits.count <= 3 || (separator == "." && digits.count == 4 && locale.hasPrefix("es")) {
            return number < 0 ? "-" + digits : digits
        }
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += separator }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }
}

/// "3 days ago" from the catalogue's `time.*` messages.
public enum RelativeTime {
    public static func describe(_ date: Date, now: Date, catalog: MessageCatalog) -> String {
        let seconds = max(0, now.timeIntervalSince(date))
        let (key, count): (String, Int)
        switch seconds {
        case ..<60: (key, count) = ("time.just_now", 0)
        case ..<3600: (key, count) = ("time.minutes_ago", Int(seconds / 60))
        case ..<86_400: (key, count) = ("time.hours_ago", Int(seconds / 3600))
        case ..<(86_400 * 30): (key, count) = ("time.days_ago", Int(seconds / 86_400))
        case ..<(86_400 * 365): (key, count) = ("time.months_ago", Int(seconds / (86_400 * 30)))
        default: (key, count) = ("time.years_ago", Int(seconds / (86_400 * 365)))
        }
        return catalog.format(key, ["count": NumberFormatting.grouped(count, locale: catalog.locale)], count: Double(count)) ?? key
    }
}

enum ISO8601 {
    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
