import Foundation

/// The data a template renders: a tree of plain values, built from a view's `Encodable` page
/// struct. Templates never see database rows.
public enum TemplateValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case list([TemplateValue])
    case object([String: TemplateValue])

    /// Converts an `Encodable` value (dates become ISO-8601 strings, which `{{ago}}` reads),
    /// exactly as a JSON round trip would, without one.
    public init<Value: Encodable>(encoding value: Value) throws {
        self = try TemplateValueEncoder.encode(value)
    }

    /// Whether a section over this value renders: false, null, 0-length lists and "" do not.
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .list(let items): !items.isEmpty
        case .string(let text): !text.isEmpty
        default: true
        }
    }

    /// The text a variable tag prints.
    var text: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): value
        case .list, .object: ""
        }
    }

    func member(_ name: String) -> TemplateValue? {
        if case .object(let fields) = self { return fields[name] }
        if case .list(let items) = self, name == "count" { return .int(items.count) }
        return nil
    }
}

extension TemplateValue {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TemplateValue].self) {
            self = .list(value)
        } else {
            self = .object(try container.decode([String: TemplateValue].self))
        }
    }
}
