/// A `RichText` as JSON, the way it is stored (JSONB beside its plain text) and carried in
/// offline bundles: an array of blocks, each an object whose `type` says what it is —
/// `{"type":"paragraph","inlines":[{"type":"text","text":"…"}]}`. Reading one back checks
/// what the markdown reader checks (links, pictures, languages, depth): a tree that could not
/// have been written is refused, whoever wrote it.
extension RichText: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var blocks: [Block] = []
        while !container.isAtEnd { blocks.append(try container.decode(Block.self)) }
        self.init(blocks)
        try RichTextCheck.check(self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for block in blocks { try container.encode(block) }
    }
}

private enum Key: String, CodingKey {
    case type, inlines, language, text, ordered, start, items, header, align, rows, caption, blocks, src, alt, href, tex, mathml, base, reading
}

extension RichText.Math {
    fileprivate init(from object: KeyedDecodingContainer<Key>) throws {
        self.init(tex: try object.decode(String.self, forKey: .tex), mathml: try object.decode(MathNode.self, forKey: .mathml))
    }

    fileprivate func encode(into object: inout KeyedEncodingContainer<Key>) throws {
        try object.encode("math", forKey: .type); try object.encode(tex, forKey: .tex); try object.encode(mathml, forKey: .mathml)
    }
}

/// A MathML node as `{"name": "mi", "attrs": {…}, "children": […]}`, or `{"text": "x"}`.
extension MathNode: Codable {
    private enum NodeKey: String, CodingKey { case name, attrs, children, text }

    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: NodeKey.self)
        if let text = try object.decodeIfPresent(String.self, forKey: .text) {
            self = .text(text)
        } else {
            self = .element(
                try object.decode(String.self, forKey: .name), attributes: try object.decodeIfPresent([String: String].self, forKey: .attrs) ?? [:],
                children: try object.decodeIfPresent([MathNode].self, forKey: .children) ?? [])
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: NodeKey.self)
        switch self {
        case .text(let text): try object.encode(text, forKey: .text)
        case .element(let name, let attributes, let children):
            try object.encode(name, forKey: .name)
            if !attributes.isEmpty { try object.encode(attributes, forKey: .attrs) }
            try object.encode(children, forKey: .children)
        }
    }
}

extension RichText.Block: Codable {
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Key.self)
        switch try object.decode(String.self, forKey: .type) {
        case "paragraph": self = .paragraph(try object.decode([RichText.Inline].self, forKey: .inlines))
        case "code": self = .code(language: try object.decodeIfPresent(String.self, forKey: .language), text: try object.decode(String.self, forKey: .text))
        case "list":
            self = .list(
                ordered: try object.decode(Bool.self, forKey: .ordered), start: try object.decodeIfPresent(Int.self, forKey: .start) ?? 1,
                items: try object.decode([[RichText.Block]].self, forKey: .items))
        case "table":
            let alignments = try object.decode([String].self, forKey: .align).map { name in
                guard let alignment = RichText.Alignment(rawValue: name) else {
                    throw DecodingError.dataCorruptedError(forKey: .align, in: object, debugDescription: "no alignment \(name.prefix(20))")
                }
                return alignment
            }
            self = .table(RichText.Table(
                header: try object.decode([[RichText.Inline]].self, forKey: .header), alignments: alignments,
                rows: try object.decode([[[RichText.Inline]]].self, forKey: .rows),
                caption: try object.decodeIfPresent([RichText.Inline].self, forKey: .caption)))
        case "quote": self = .quote(try object.decode([RichText.Block].self, forKey: .blocks))
        case "math": self = .math(try RichText.Math(from: object))
        case "picture":
            self = .picture(RichText.Picture(
                source: try object.decode(String.self, forKey: .src), alt: try object.decode(String.self, forKey: .alt),
                caption: try object.decodeIfPresent(String.self, forKey: .caption)))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: object, debugDescription: "no block of type \(other.prefix(20))")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: Key.self)
        switch self {
        case .paragraph(let inlines): try object.encode("paragraph", forKey: .type); try object.encode(inlines, forKey: .inlines)
        case .code(let language, let text):
            try object.encode("code", forKey: .type); try object.encodeIfPresent(language, forKey: .language); try object.encode(text, forKey: .text)
        case .list(let ordered, let start, let items):
            try object.encode("list", forKey: .type); try object.encode(ordered, forKey: .ordered)
            if start != 1 { try object.encode(start, forKey: .start) }
            try object.encode(items, forKey: .items)
        case .table(let table):
            try object.encode("table", forKey: .type); try object.encode(table.header, forKey: .header)
            try object.encode(table.alignments.map(\.rawValue), forKey: .align); try object.encode(table.rows, forKey: .rows)
            try object.encodeIfPresent(table.caption, forKey: .caption)
        case .quote(let blocks): try object.encode("quote", forKey: .type); try object.encode(blocks, forKey: .blocks)
        case .picture(let picture):
            try object.encode("picture", forKey: .type); try object.encode(picture.source, forKey: .src); try object.encode(picture.alt, forKey: .alt)
            try object.encodeIfPresent(picture.caption, forKey: .caption)
        case .math(let math): try math.encode(into: &object)
        }
    }
}

extension RichText.Inline: Codable {
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Key.self)
        func inner() throws -> [RichText.Inline] { try object.decode([RichText.Inline].self, forKey: .inlines) }
        switch try object.decode(String.self, forKey: .type) {
        case "text": self = .text(try object.decode(String.self, forKey: .text))
        case "emphasis": self = .emphasis(try inner())
        case "strong": self = .strong(try inner())
        case "sub": self = .subscript(try inner())
        case "sup": self = .superscript(try inner())
        case "code": self = .code(try object.decode(String.self, forKey: .text))
        case "break": self = .lineBreak
        case "link": self = .link(href: try object.decode(String.self, forKey: .href), try inner())
        case "math": self = .math(try RichText.Math(from: object))
        case "ruby": self = .ruby(base: try object.decode(String.self, forKey: .base), reading: try object.decode(String.self, forKey: .reading))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: object, debugDescription: "no inline of type \(other.prefix(20))")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: Key.self)
        switch self {
        case .text(let text): try object.encode("text", forKey: .type); try object.encode(text, forKey: .text)
        case .emphasis(let inner): try object.encode("emphasis", forKey: .type); try object.encode(inner, forKey: .inlines)
        case .strong(let inner): try object.encode("strong", forKey: .type); try object.encode(inner, forKey: .inlines)
        case .subscript(let inner): try object.encode("sub", forKey: .type); try object.encode(inner, forKey: .inlines)
        case .superscript(let inner): try object.encode("sup", forKey: .type); try object.encode(inner, forKey: .inlines)
        case .code(let text): try object.encode("code", forKey: .type); try object.encode(text, forKey: .text)
        case .lineBreak: try object.encode("break", forKey: .type)
        case .link(let href, let inner):
            try object.encode("link", forKey: .type); try object.encode(href, forKey: .href); try object.encode(inner, forKey: .inlines)
        case .math(let math): try math.encode(into: &object)
        case .ruby(let base, let reading):
            try object.encode("ruby", forKey: .type); try object.encode(base, forKey: .base); try object.encode(reading, forKey: .reading)
        }
    }
}

/// The rules a tree read from anywhere must keep (the markdown reader keeps them by making).
public enum RichTextCheck {
    public struct Violation: Error, Equatable, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    public static func check(_ text: RichText) throws(Violation) {
        for block in text.blocks { try check(block, depth: 0) }
    }

    private static func check(_ block: RichText.Block, depth: Int) throws(Violation) {
        guard depth <= RichTextRules.maximumDepth else { throw Violation(description: "blocks nest more than \(RichTextRules.maximumDepth) deep") }
        switch block {
        case .paragraph(let inlines): try check(inlines, depth: depth)
        case .code(let language, _):
            if let language, !RichTextRules.isAllowedLanguage(language) { throw Violation(description: "\"\(language.prefix(40))\" is not a language name") }
        case .list(_, let start, let items):
            guard (0...999_999_999).contains(start) else { throw Violation(description: "a list cannot start at \(start)") }
            for item in items { for inner in item { try check(inner, depth: depth + 1) } }
        case .table(let table):
            guard !table.header.isEmpty, table.alignments.count == table.header.count, table.rows.allSatisfy({ $0.count == table.header.count }) else {
                throw Violation(description: "a table's rows, header and alignments must be as wide as each other")
            }
            for cell in table.header + table.rows.flatMap({ $0 }) { try check(cell, depth: depth) }
            if let caption = table.caption { try check(caption, depth: depth) }
        case .quote(let blocks): for inner in blocks { try check(inner, depth: depth + 1) }
        case .picture(let picture):
            guard RichTextRules.isAllowedPicture(picture.source) else { throw Violation(description: "\(picture.source.prefix(80)) is not one of the portal's pictures") }
            guard !picture.alt.allSatisfy({ $0 == " " }) else { throw Violation(description: "the picture \(picture.source.prefix(80)) has no alt text") }
        case .math(let math): try check(math)
        }
    }

    /// A formula's MathML is held to MathML Core's elements and the converter's attributes,
    /// whoever wrote it: a stored `<maction>` or an `href` on an element is refused.
    private static func check(_ math: RichText.Math) throws(Violation) {
        guard math.tex.utf8.count <= TeXMath.maximumLength else { throw Violation(description: "a formula is longer than 4 KB") }
        guard case .element("mrow", _, _) = math.mathml else { throw Violation(description: "a formula must be an mrow") }
        if let problem = MathNode.problem(math.mathml) { throw Violation(description: problem) }
    }

    private static func check(_ inlines: [RichText.Inline], depth: Int) throws(Violation) {
        guard depth <= RichTextRules.maximumDepth * 3 else { throw Violation(description: "text nests more than \(RichTextRules.maximumDepth * 3) deep") }
        for inline in inlines {
            switch inline {
            case .text, .code, .lineBreak: break
            case .emphasis(let inner), .strong(let inner), .subscript(let inner), .superscript(let inner): try check(inner, depth: depth + 1)
            case .link(let href, let inner):
                guard RichTextRules.isAllowedLink(href) else { throw Violation(description: "a link must go to an https: address, not \(href.prefix(80))") }
                try check(inner, depth: depth + 1)
            case .math(let math): try check(math)
            case .ruby(let base, let reading):
                if let problem = RichTextRules.rubyProblem(base: base, reading: reading) { throw Violation(description: problem) }
            }
        }
    }
}
