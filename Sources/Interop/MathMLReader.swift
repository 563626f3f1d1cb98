import QuestionEngine

/// A `<math>` element from other systems' question text (a QTI item's MathML, Moodle's HTML)
/// reduced to the formulas the tree keeps: MathML Core's elements that `MathNode` allows, with
/// the attributes and values it allows; every other element gives only its content (`mpadded`,
/// `menclose`, `mstyle`'s kin), or nothing when it shows nothing or is not a formula's to show
/// (`mphantom`, `annotation-xml`, all but the first child of `maction` and `semantics`). Links,
/// styles and events are attributes no formula may have, so they are gone. The TeX is the
/// element's `application/x-tex` annotation when the converter reads it, else written from
/// the MathML (`MathTeX`). Iterative over the tokens; nesting beyond the tree's limit is refused.
enum MathMLReader {
    struct Formula {
        var math: RichText.Math
        var display: Bool
    }

    private enum Role {
        /// Kept, as this element.
        case kept(String)
        /// Its children go to its parent in its place.
        case content
        /// It and everything in it are left out.
        case dropped
        /// Only its first element child counts (`semantics`, `maction`).
        case first
        /// A TeX annotation: its text is the formula's TeX.
        case annotation
        /// The deprecated `mfenced`: its children between fences, apart by separators.
        case fenced(open: String, close: String, separators: [String])
    }

    private struct Frame {
        var name: String
        var role: Role
        var attributes: [String: String]
        var children: [MathNode] = []
        var text = ""
    }

    private static let tokenElements: Set<String> = ["mi", "mn", "mo", "mtext"]
    private static let texEncodings: Set<String> = ["application/x-tex", "tex", "latex", "application/x-latex", "text/x-latex"]

    /// The formula of a `<math>` element's tokens, from its start tag to its end tag.
    static func read(_ tokens: ArraySlice<HTMLScanner.Token>) throws(ItemProblem) -> Formula {
        var display = false
        var stack: [Frame] = []
        var annotation: String?
        for token in tokens {
            switch token {
            case .start(let tagName, let attributes, let selfClosing):
                let name = localName(tagName)
                if stack.isEmpty {
                    display = token.attribute("display") == "block" || token.attribute("mode") == "display"
                    stack.append(Frame(name: name, role: .kept("mrow"), attributes: [:]))
                    continue
                }
                if case .dropped = stack.last?.role {
                    if !selfClosing { stack.append(Frame(name: name, role: .dropped, attributes: [:])) }
                    continue
                }
                guard stack.count < 64 else { throw ItemProblem(reason: "a formula nests more than 64 deep") }
                var kept: [String: String] = [:]
                for attribute in attributes {
                    let value = MarkupText.decodeEntities(attribute.value)
                    guard let allowed = MathNode.attributes[attribute.name] else { continue }
                    if let allowed, !allowed.contains(value) { continue }
                    if allowed == nil, !MathNode.isLength(value) { continue }
                    kept[attribute.name] = value
                }
                let role: Role
                switch name {
                case "semantics", "maction": role = .first
                case "annotation":
                    role = texEncodings.contains((token.attribute("encoding") ?? "").lowercased()) && annotation == nil ? .annotation : .dropped
                case "annotation-xml", "mphantom", "mprescripts", "none", "malignmark", "maligngroup", "mglyph": role = .dropped
                case "ms": role = .kept("mtext")
                case "mfenced":
                    let separators = (token.attribute("separators") ?? ",").filter { !$0.isWhitespace }.map(String.init)
                    role = .fenced(open: token.attribute("open") ?? "(", close: token.attribute("close") ?? ")", separators: separators)
                case "mlabeledtr": role = .kept("mtr")
                default: role = MathNode.elements.contains(name) ? .kept(name) : .content
                }
                stack.append(Frame(name: name, role: role, attributes: kept))
                if selfClosing { close(&stack, annotation: &annotation) }
            case .end(let tagName):
                // An end tag closes up to its element; one that closes nothing open is ignored.
                let name = localName(tagName)
                guard let open = stack.indices.dropFirst().last(where: { stack[$0].name == name }) else { continue }
                while stack.count > open { close(&stack, annotation: &annotation) }
            case .text(let text):
                guard let last = stack.last else { continue }
                switch last.role {
                case .kept(let name) where tokenElements.contains(name): stack[stack.count - 1].text += MarkupText.decodeEntities(text)
                case .annotation: stack[stack.count - 1].text += MarkupText.decodeEntities(text)
                case .dropped: break
                default:
                    // Text straight in a row is not MathML's, but it is the formula's words.
                    let words = MarkupText.decodeEntities(text).trimmingCharacters(in: .whitespacesAndNewlines)
                    if !words.isEmpty { stack[stack.count - 1].children.append(.element("mtext", attributes: [:], children: [.text(words)])) }
                }
            }
        }
        let children = stack.first?.children ?? []
        let mathml: MathNode
        if children.count == 1, case .element("mrow", _, _) = children[0] { mathml = children[0] } else { mathml = .element("mrow", attributes: [:], children: children) }
        if let problem = MathNode.problem(mathml) { throw ItemProblem(reason: "a formula \(problem)") }
        // The annotation's TeX when the converter reads it; else TeX written from the MathML.
        if let annotation, !annotation.isEmpty, (try? TeXMath.convert(annotation)) != nil {
            return Formula(math: RichText.Math(tex: annotation, mathml: mathml), display: display)
        }
        let tex = MathTeX.write(mathml)
        do {
            _ = try TeXMath.convert(tex)
        } catch {
            throw ItemProblem(reason: "the formula \(tex.prefix(60)) cannot be shown: \(error.message)")
        }
        return Formula(math: RichText.Math(tex: tex, mathml: mathml), display: display)
    }

    /// Ends the top element, giving what it made to its parent.
    private static func close(_ stack: inout [Frame], annotation: inout String?) {
        let frame = stack.removeLast()
        guard !stack.isEmpty else { return }
        let made: [MathNode]
        switch frame.role {
        case .dropped: made = []
        case .annotation:
            // TeX written across lines is one line, as TeX reads it.
            let text = frame.text
            annotation = text.contains("\n") ? text.split(whereSeparator: \.isWhitespace).joined(separator: " ") : text
            made = []
        case .content: made = frame.children
        case .fenced(let open, let close, let separators):
            var row: [MathNode] = []
            func fence(_ text: String) -> MathNode { .element("mo", attributes: ["fence": "true"], children: [.text(text)]) }
            if !open.isEmpty { row.append(fence(open)) }
            for (index, child) in frame.children.enumerated() {
                if index > 0, !separators.isEmpty { row.append(.element("mo", attributes: [:], children: [.text(separators[min(index - 1, separators.count - 1)])])) }
                row.append(child)
            }
            if !close.isEmpty { row.append(fence(close)) }
            made = [.element("mrow", attributes: [:], children: row)]
        case .first: made = Array(frame.children.prefix(1))
        case .kept(let name):
            if tokenElements.contains(name) {
                // Blanks around a token's text are not its text (MathML trims them), but text's own are.
                let text = name == "mtext" ? frame.text : frame.text.trimmingCharacters(in: .whitespacesAndNewlines)
                made = [.element(name, attributes: frame.attributes, children: text.isEmpty ? [] : [.text(text)])]
            } else {
                made = [.element(name, attributes: frame.attributes, children: frame.children)]
            }
        }
        if case .first = stack[stack.count - 1].role, !stack[stack.count - 1].children.isEmpty { return }
        stack[stack.count - 1].children += made
    }

    /// `m:mi` is `mi`: a prefix only names the namespace.
    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }
}
