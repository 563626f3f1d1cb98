/// Where a tag stands in its template, for error messages.
struct SourcePosition: Sendable, Equatable {
    var line: Int
    var column: Int
}

/// A parameter of a `{{t}}` tag: a path into the data or a quoted literal.
enum MessageArgument: Sendable, Equatable {
    case path([String])
    case literal(String)
}

/// One piece of a compiled template.
indirect enum TemplateNode: Sendable, Equatable {
    case text([UInt8])
    case variable([String], escaped: Bool, SourcePosition)
    case section([String], inverted: Bool, [TemplateNode], SourcePosition)
    case partial(String, SourcePosition)
    /// `{{< layout}}…{{/layout}}`: render `layout` with these blocks replaced.
    case parent(String, blocks: [String: [TemplateNode]], SourcePosition)
    /// `{{$ name}}default{{/name}}`: a block a child may replace.
    case block(String, [TemplateNode])
    /// `{{%name}}…{{/name}}`: a fragment shared by many readers (see `Fragment`).
    case fragment(String, [TemplateNode], SourcePosition)
    case message(String, arguments: [(String, MessageArgument)], SourcePosition)
    case relativeTime([String], SourcePosition)
    case number([String], SourcePosition)

    static func == (lhs: TemplateNode, rhs: TemplateNode) -> Bool {
        switch (lhs, rhs) {
        case let (.text(a), .text(b)): a == b
        case let (.variable(a, x, p), .variable(b, y, q)): a == b && x == y && p == q
        case let (.section(a, x, n, p), .section(b, y, m, q)): a == b && x == y && n == m && p == q
        case let (.partial(a, p), .partial(b, q)): a == b && p == q
        case let (.parent(a, x, p), .parent(b, y, q)): a == b && x == y && p == q
        case let (.block(a, n), .block(b, m)): a == b && n == m
        case let (.fragment(a, n, p), .fragment(b, m, q)): a == b && n == m && p == q
        case let (.message(a, x, p), .message(b, y, q)): a == b && p == q && x.elementsEqual(y) { $0.0 == $1.0 && $0.1 == $1.1 }
        case let (.relativeTime(a, p), .relativeTime(b, q)): a == b && p == q
        case let (.number(a, p), .number(b, q)): a == b && p == q
        default: false
        }
    }
}
