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
        return isText && QuestionTexts.optionProblem(tree) != nil ? nil : tree
    }

    /// The tree of an option's text already split into tokens (a QTI choice's content): one
    /// paragraph at most, else none (the option keeps its words). Pictures are not read here.
    static func optionTree(tokens: [HTMLScanner.Token], field: String) throws(ItemProblem) -> RichText? {
        let tree = try HTMLRichText.read(tokens: tokens, field: field) { source, _ in
            .failure(ItemProblem(reason: "\(field) shows a picture (\(source.prefix(100))), which only a question's text or an option's image may"))
        }
        return tree.isPlainText || QuestionTexts.optionProblem(tree) != nil ? nil : tree
    }

    /// The tree of a text already split into tokens (a QTI element's content).
    static func tree(tokens: [HTMLScanner.Token], field: String, pictures: HTMLRichText.PictureResolver) throws(ItemProblem) -> RichText? {
        let tree = try HTMLRichText.read(tokens: tokens, field: field, pictures: pictures)
        return tree.isPlainText ? nil : tree
    }
}
