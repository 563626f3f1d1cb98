import QuestionEngine

/// How another system marks up one of a question's texts (Moodle's `format`, GIFT's `[html]`
/// and `[markdown]`, QTI's XHTML), and the tree of a text so marked. A text of words alone has
/// no tree: it stays plain text exactly as the importers always made it.
enum ForeignMarkup {
    case plain, html, markdown

    /// A Moodle text element's markup, from its `format` (HTML unless it says otherwise).
    static func moodle(_ element: XMLTree.Element?) -> ForeignMarkup {
        switch element?.attributes["format"] {
        case "plain_text": .plain
        case "markdown": .markdown
        default: .html
        }
    }

    /// The tree of `source` when it holds more than words; `field` names the text in a problem,
    /// `pictures` resolves the pictures it shows.
    func tree(_ source: String, field: String, pictures: HTMLRichText.PictureResolver) throws(ItemProblem) -> RichText? {
        let tree: RichText
        switch self {
        case .plain: return nil
        case .html: tree = try HTMLRichText.read(source, field: field, pictures: pictures)
        case .markdown:
            do { tree = try MarkdownReader().read(source) } catch { throw ItemProblem(reason: "\(field): \(error.description)") }
        }
        return tree.isPlainText ? nil : tree
    }

    /// The tree of an option's text or feedback: as `tree`, and for a text one paragraph at
    /// most (it stands in the option's label; one with more keeps its words). Pictures are not
    /// read here: an option's picture is its image.
    func optionTree(_ source: String, field: String, isText: Bool) throws(ItemProblem) -> RichText? {
        if self == .html, !MarkupText.images(source).isEmpty, isText { return nil }
        let tree = try self.tree(source, field: field) { source, _ in
            .failure(ItemProblem(reason: "\(field) shows a picture (\(source.prefix(100))), which only a question's text or an option's image may"))
        }
        guard let tree else { return nil }
        guard isText, QuestionTexts.optionProblem(tree) != nil else { return tree }
        return Self.oneLine(tree)
    }

    /// A text of several blocks as the one paragraph an option's label holds: its blocks' and
    /// cells' contents one after another, each on a line of its own, formulas and emphasis kept;
    /// nil when it shows a picture.
    static func oneLine(_ tree: RichText) -> RichText? {
        var lines: [[RichText.Inline]] = []
        var pending = tree.blocks[...]
        var stack: [ArraySlice<RichText.Block>] = []
        while true {
            guard let block = pending.popFirst() else {
                guard let outer = stack.popLast() else { break }
                pending = outer
                continue
            }
            switch block {
            case .paragraph(let inlines): lines.append(inlines)
            case .code(_, let text): lines.append([.code(text)])
            case .math(let math): lines.append([.math(math)])
            case .picture: return nil
            case .quote(let blocks):
                stack.append(pending)
                pending = blocks[...]
            case .list(_, _, let items):
                stack.append(pending)
                pending = items.flatMap { $0 }[...]
            case .table(let table):
                lines += (table.caption.map { [$0] } ?? []) + table.header + table.rows.flatMap { $0 }
            }
        }
        let inlines = lines.filter { !$0.isEmpty }.enumerated().flatMap { $0.offset == 0 ? $0.element : [.lineBreak] + $0.element }
        let line = RichText([.paragraph(inlines)])
        return QuestionTexts.optionProblem(line) == nil ? line : nil
    }

    /// The tree of an option's text already split into tokens (a QTI choice's content): one
    /// paragraph at most, else none (the option keeps its words). Pictures are not read here.
    static func optionTree(tokens: [HTMLScanner.Token], field: String) throws(ItemProblem) -> RichText? {
        let tree = try HTMLRichText.read(tokens: tokens, field: field) { source, _ in
            .failure(ItemProblem(reason: "\(field) shows a picture (\(source.prefix(100))), which only a question's text or an option's image may"))
        }
        if tree.isPlainText { return nil }
        return QuestionTexts.optionProblem(tree) == nil ? tree : oneLine(tree)
    }

    /// The tree of a text already split into tokens (a QTI element's content).
    static func tree(tokens: [HTMLScanner.Token], field: String, pictures: HTMLRichText.PictureResolver) throws(ItemProblem) -> RichText? {
        let tree = try HTMLRichText.read(tokens: tokens, field: field, pictures: pictures)
        return tree.isPlainText ? nil : tree
    }
}
