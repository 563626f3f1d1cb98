import Foundation

/// A page's `method="post"` form as a browser would send it untouched: its hidden fields, the
/// values its inputs show, its checked boxes and radios, each select's chosen options, each
/// text area's text, and its first submit button when that has a name (the one Enter presses) —
/// controls inside it and those outside that name it with `form="…"`.
public struct PageForm {
    public var action: String
    /// Sent as `multipart/form-data` (a form with a file input).
    public var isMultipart: Bool
    public var fields: [(name: String, value: String)]

    /// The page's post forms whose action is `action`, in page order.
    public static func all(in html: String, action: String) -> [PageForm] { all(in: html).filter { $0.action == action } }

    /// Every post form of the page, in page order.
    public static func all(in html: String) -> [PageForm] {
        struct Open { var action: String; var multipart: Bool; var id: String?; var range: Range<String.Index>; var fields: [(String, String)] = [] }
        var forms: [Open] = []
        var cursor = html.startIndex
        while let start = html.range(of: "<form", range: cursor..<html.endIndex) {
            let tagEnd = html.range(of: ">", range: start.upperBound..<html.endIndex)?.upperBound ?? html.endIndex
            let attributes = Self.attributes(String(html[start.upperBound..<tagEnd]))
            let close = html.range(of: "</form>", range: tagEnd..<html.endIndex)?.lowerBound ?? html.endIndex
            if attributes["method"]?.lowercased() == "post" {
                forms.append(Open(action: attributes["action"] ?? "", multipart: attributes["enctype"] == "multipart/form-data", id: attributes["id"], range: tagEnd..<close))
            }
            cursor = tagEnd
        }
        func owner(_ at: String.Index, _ attributes: [String: String]) -> Int? {
            if let named = attributes["form"] { return forms.firstIndex { $0.id == named } }
            return forms.firstIndex { $0.range.contains(at) }
        }
        var pressed = Set<Int>()
        let pattern = try! NSRegularExpression(pattern: "<(input|select|textarea|button)\\b([^>]*)>", options: [.caseInsensitive])
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            guard let whole = Range(match.range, in: html), let kindRange = Range(match.range(at: 1), in: html),
                  let attributeRange = Range(match.range(at: 2), in: html) else { continue }
            let attributes = Self.attributes(String(html[attributeRange]))
            guard attributes["disabled"] == nil, let form = owner(whole.lowerBound, attributes) else { continue }
            let kind = html[kindRange].lowercased(), type = attributes["type"]?.lowercased() ?? (kind == "button" ? "submit" : "text")
            if type == "submit" || type == "image" {
                if pressed.insert(form).inserted, let name = attributes["name"] { forms[form].fields.append((name, attributes["value"] ?? "")) }
                continue
            }
            guard let name = attributes["name"], kind != "button" else { continue }
            switch kind {
            case "input":
                switch type {
                case "button", "reset", "file": continue
                case "checkbox", "radio":
                    if attributes["checked"] != nil { forms[form].fields.append((name, attributes["value"] ?? "on")) }
                default:
                    forms[form].fields.append((name, attributes["value"] ?? ""))
                }
            case "select":
                let end = html.range(of: "</select>", range: whole.upperBound..<html.endIndex)?.lowerBound ?? html.endIndex
                let options = Self.options(String(html[whole.upperBound..<end]))
                let chosen = options.filter(\.selected)
                if attributes["multiple"] != nil {
                    forms[form].fields += chosen.map { (name, $0.value) }
                } else if let option = chosen.first ?? options.first {
                    forms[form].fields.append((name, option.value))
                }
            default:
                let end = html.range(of: "</textarea>", range: whole.upperBound..<html.endIndex)?.lowerBound ?? html.endIndex
                forms[form].fields.append((name, Self.decoded(String(html[whole.upperBound..<end]))))
            }
        }
        return forms.map { PageForm(action: Self.decoded($0.action), isMultipart: $0.multipart, fields: $0.fields) }
    }

    /// The form with `changes` made: a named field's value replaced (every field of that name
    /// gives way to one), a new one added.
    public func filled(_ changes: [String: String]) -> [(String, String)] {
        var sent = fields.filter { changes[$0.name] == nil }.map { ($0.name, $0.value) }
        sent += changes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return sent
    }

    private static func attributes(_ text: String) -> [String: String] {
        var found: [String: String] = [:]
        let pattern = try! NSRegularExpression(pattern: #"([A-Za-z_:][-A-Za-z0-9_:.]*)(?:\s*=\s*"([^"]*)")?"#)
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let name = Range(match.range(at: 1), in: text) else { continue }
            let value = Range(match.range(at: 2), in: text).map { decoded(String(text[$0])) } ?? ""
            if found[text[name].lowercased()] == nil { found[text[name].lowercased()] = value }
        }
        return found
    }

    private static func options(_ text: String) -> [(value: String, selected: Bool)] {
        var found: [(String, Bool)] = []
        let pattern = try! NSRegularExpression(pattern: "<option\\b([^>]*)>([^<]*)")
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let attributeRange = Range(match.range(at: 1), in: text), let label = Range(match.range(at: 2), in: text) else { continue }
            let attributes = Self.attributes(String(text[attributeRange]))
            if attributes["disabled"] != nil { continue }
            found.append((attributes["value"] ?? decoded(String(text[label])), attributes["selected"] != nil))
        }
        return found
    }

    private static func decoded(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&#x2F;", with: "/").replacingOccurrences(of: "&amp;", with: "&")
    }
}
