/// A formula as MathML Core, the way the tree keeps it: elements of an allowed set with the
/// attributes the converter writes, and text. Made by `TeXMath` when content is saved; written
/// by the renderers as `<math>` (pages) or with `createElementNS` (the offline script).
public indirect enum MathNode: Sendable, Equatable {
    case element(String, attributes: [String: String], children: [MathNode])
    case text(String)

    /// The MathML Core elements a formula may use.
    public static let elements: Set<String> = [
        "mrow", "mi", "mn", "mo", "mtext", "mspace", "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot",
        "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mstyle",
    ]

    /// The attributes, and the values each may take (nil: a length or a number, checked by `isLength`).
    public static let attributes: [String: Set<String>?] = [
        "mathvariant": ["normal"], "stretchy": ["true", "false"], "fence": ["true"], "largeop": ["true"],
        "movablelimits": ["true", "false"], "accent": ["true"], "accentunder": ["true"], "linethickness": ["0"],
        "width": nil, "lspace": nil, "rspace": nil, "displaystyle": ["true", "false"], "scriptlevel": ["0", "1"],
    ]

    /// `0.167em`, `-0.167em`, `1em`, `0`.
    public static func isLength(_ text: String) -> Bool {
        var body = Substring(text)
        if body.hasPrefix("-") { body = body.dropFirst() }
        if body.hasSuffix("em") { body = body.dropLast(2) }
        return !body.isEmpty && body.count <= 8 && body.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }

    /// Why a node cannot be a formula's, or nil.
    public static func problem(_ node: MathNode, depth: Int = 0) -> String? {
        guard depth <= 64 else { return "a formula nests more than 64 deep" }
        switch node {
        case .text: return nil
        case .element(let name, let attributes, let children):
            guard elements.contains(name) else { return "\(name.prefix(20)) is not a MathML element a formula may use" }
            for (attribute, value) in attributes {
                guard let allowed = Self.attributes[attribute] else { return "\(attribute.prefix(20)) is not an attribute a formula may use" }
                if let allowed, !allowed.contains(value) { return "\(attribute.prefix(20))=\"\(value.prefix(20))\" is not allowed" }
                if allowed == nil, !isLength(value) { return "\(attribute.prefix(20))=\"\(value.prefix(20))\" is not allowed" }
            }
            for child in children { if let problem = problem(child, depth: depth + 1) { return problem } }
            return nil
        }
    }
}
