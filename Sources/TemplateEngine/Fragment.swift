import Synchronization

/// A part of a page that is the same for many readers (a question's text, an exam's domains, a
/// leaderboard's rows), named in a template by `{{%name}}…{{/name}}`.
///
/// The section is rendered from `value` alone — plus `locale` — so nothing personal on the
/// page can leak into it, whatever the section's markup names. `value` is only called when
/// the store does not hold the fragment under `key` (the template's name, the fragment's name
/// and the locale are added to it): the data behind a kept fragment is not even read. The key
/// must name everything the value depends on (a content version, a refresh time).
public struct Fragment {
    public var key: String
    public var value: () throws -> TemplateValue

    public init(key: String, value: @escaping () throws -> TemplateValue) {
        self.key = key
        self.value = value
    }

    /// A fragment of an `Encodable` value.
    public init<Value: Encodable>(key: String, _ value: @escaping () throws -> Value) {
        self.init(key: key) { try TemplateValue(encoding: value()) }
    }
}

/// Where rendered fragments are kept between requests.
public protocol FragmentStore: Sendable {
    /// The bytes kept under `key`, or those `render` makes (then kept). A store may make
    /// concurrent callers for the same key wait for one render rather than each render it.
    func fragment(_ key: String, render: () throws -> [UInt8]) throws -> [UInt8]
}

/// What one render call learns about its fragments: each value read at most once, however many
/// sections show it, and the error a value threw, carried out of the renderer (whose errors
/// are typed).
final class FragmentReads: @unchecked Sendable {  // one render call, one thread
    private(set) var error: (any Error)?
    private var values: [String: TemplateValue] = [:]

    func record(_ error: any Error) {
        if self.error == nil { self.error = error }
    }

    func value(of name: String, _ fragment: Fragment) throws -> TemplateValue {
        if let value = values[name] { return value }
        let value = try fragment.value()
        values[name] = value
        return value
    }
}
