import Foundation

/// A text of a question (its stem, an option, an explanation) as a small document: paragraphs,
/// lists, tables, code, quotes and pictures, and inside them emphasis, code, sub- and
/// superscripts, line breaks and links. Nothing else is representable — no raw HTML, no
/// attribute the tree does not define — so whatever renders it (the pages, the offline script,
/// the exports) writes only what these cases say.
public struct RichText: Sendable, Equatable {
    public var blocks: [Block]

    public init(_ blocks: [Block]) { self.blocks = blocks }

    /// Plain text as a tree that says the same: a paragraph a line group, a line break a line.
    public static func words(_ text: String) -> RichText {
        let paragraphs = text.components(separatedBy: "\n\n").map { paragraph in
            paragraph.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        }.filter { $0.contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty } }
        return RichText(paragraphs.map { lines in
            var inlines: [Inline] = []
            for (index, line) in lines.enumerated() {
                if index > 0 { inlines.append(.lineBreak) }
                if !line.isEmpty { inlines.append(.text(line)) }
            }
            return .paragraph(inlines)
        })
    }

    /// Whether the text is only words: paragraphs of text and line breaks, nothing a plain
    /// text could not say.
    public var isPlainText: Bool {
        blocks.allSatisfy { block in
            guard case .paragraph(let inlines) = block else { return false }
            return inlines.allSatisfy { inline in
                switch inline {
                case .text, .lineBreak: true
                default: false
                }
            }
        }
    }

    /// A block of a document.
    public indirect enum Block: Sendable, Equatable {
        case paragraph([Inline])
        /// Code shown as written; `language` names it for highlighting (nil: plain).
        case code(language: String?, text: String)
        /// Items of blocks, numbered from `start` when `ordered`.
        case list(ordered: Bool, start: Int, items: [[Block]])
        case table(Table)
        case quote([Block])
        case picture(Picture)
        /// A displayed formula (`$$…$$`, `\[…\]`).
        case math(Math)
    }

    /// A run of text inside a block.
    public indirect enum Inline: Sendable, Equatable {
        case text(String)
        case emphasis([Inline])
        case strong([Inline])
        case `subscript`([Inline])
        case superscript([Inline])
        case code(String)
        case lineBreak
        /// A link to an `https:` address.
        case link(href: String, [Inline])
        /// A formula in the text (`$…$`, `\(…\)`).
        case math(Math)
        /// Base text with its reading above it (`{漢字|かんじ}`: ruby, furigana for Japanese).
        case ruby(base: String, reading: String)
    }

    /// A formula: the TeX it was written in and the MathML Core it was turned into when saved.
    public struct Math: Sendable, Equatable {
        public var tex: String
        public var mathml: MathNode

        public init(tex: String, mathml: MathNode) {
            self.tex = tex
            self.mathml = mathml
        }

        /// Reads TeX, or says which command it cannot show.
        public init(tex: String) throws(TeXMath.Problem) {
            self.init(tex: tex, mathml: try TeXMath.convert(tex))
        }
    }

    /// How a table's column is aligned.
    public enum Alignment: String, Sendable, Equatable, CaseIterable {
        case none, left, center, right
    }

    /// A table: a header row, the columns' alignment, the body rows (each as wide as the
    /// header) and an optional caption.
    public struct Table: Sendable, Equatable {
        public var header: [[Inline]]
        public var alignments: [Alignment]
        public var rows: [[[Inline]]]
        public var caption: [Inline]?

        public init(header: [[Inline]], alignments: [Alignment], rows: [[[Inline]]], caption: [Inline]? = nil) {
            self.header = header
            self.alignments = alignments
            self.rows = rows
            self.caption = caption
        }
    }

    /// A picture of the portal's own (`/content-images/…`), with the text that stands for it.
    public struct Picture: Sendable, Equatable {
        public var source: String
        public var alt: String
        public var caption: String?

        public init(source: String, alt: String, caption: String? = nil) {
            self.source = source
            self.alt = alt
            self.caption = caption
        }
    }
}
