/// A `RichText` as plain text, for the places that need words and not layout: search, the
/// share page's description, item statistics, the admin's review flags. Paragraphs and items
/// are lines; a table is its cells separated by tabs, a row a line; a picture is its alt text.
public enum RichTextPlain {
    public static func text(_ richText: RichText) -> String {
        richText.blocks.map(text).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    private static func text(_ block: RichText.Block) -> String {
        switch block {
        case .paragraph(let inlines): return text(inlines)
        case .code(_, let code): return code
        case .list(let ordered, let start, let items):
            return items.enumerated().map { offset, item in
                (ordered ? "\(start + offset). " : "• ") + item.map(text).joined(separator: "\n")
            }.joined(separator: "\n")
        case .table(let table):
            var lines = [table.header.map(text).joined(separator: "\t")]
            lines += table.rows.map { $0.map(text).joined(separator: "\t") }
            if let caption = table.caption { lines.insert(text(caption), at: 0) }
            return lines.joined(separator: "\n")
        case .quote(let blocks): return blocks.map(text).joined(separator: "\n")
        case .picture(let picture): return picture.caption.map { "\(picture.alt) (\($0))" } ?? picture.alt
        case .math(let math): return math.tex
        }
    }

    /// Inlines as the words they say.
    public static func text(_ inlines: [RichText.Inline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let words), .code(let words): words
            case .emphasis(let inner), .strong(let inner), .subscript(let inner), .superscript(let inner), .link(_, let inner): text(inner)
            case .lineBreak: "\n"
            case .math(let math): math.tex
            case .ruby(let base, _): base
            }
        }.joined()
    }
}
