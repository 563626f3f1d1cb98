import Foundation

/// The texts of a question written in markdown, as trees: its stem, its explanation, and each
/// option's text and explanation (in the options' order). Stored as JSONB in `questions.rich`
/// beside the plain columns, which then hold the trees' plain text (`RichTextPlain`) for search
/// and statistics. A question without it is plain text, shown exactly as written.
///
/// An option's text is one paragraph at most (it stands inside the option's label, where only
/// a line of text may go); a matching question's targets stay plain, as a list box shows them.
public struct QuestionTexts: Sendable, Equatable, Codable {
    /// One option's texts.
    public struct Option: Sendable, Equatable, Codable {
        public var text: RichText
        public var explanation: RichText?

        public init(text: RichText, explanation: RichText? = nil) {
            self.text = text
            self.explanation = explanation
        }

        private enum CodingKeys: String, CodingKey { case text, explanation }

        /// Read back, an option's text is held to what the reader makes: one paragraph at most.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try container.decode(RichText.self, forKey: .text)
            explanation = try container.decodeIfPresent(RichText.self, forKey: .explanation)
            if let problem = QuestionTexts.optionProblem(text) { throw RichTextCheck.Violation(description: problem) }
        }

        /// The option's text as inlines: its one paragraph's, or none.
        public var inlines: [RichText.Inline] {
            if case .paragraph(let inlines)? = text.blocks.first { return inlines }
            return []
        }
    }

    public var stem: RichText
    public var explanation: RichText
    public var options: [Option]

    public init(stem: RichText, explanation: RichText, options: [Option]) {
        self.stem = stem
        self.explanation = explanation
        self.options = options
    }

    /// Stored texts read back for a question of `optionCount` options: refused, as the
    /// database's check refuses them, when a tree breaks the rules or the options do not match.
    public static func stored(_ json: [UInt8], optionCount: Int) throws -> QuestionTexts {
        let texts = try JSONDecoder().decode(QuestionTexts.self, from: Data(json))
        guard texts.options.count == optionCount else { throw RichTextCheck.Violation(description: "rich texts must have one entry for each option") }
        return texts
    }

    /// What is wrong with one of a question's markdown texts: the field (`stem`,
    /// `options[2].text`) and what the reader said.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var field: String
        public var message: String
        public var description: String { "\(field): \(message)" }

        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }
    }

    /// Reads a question's markdown sources; the first problem names its field.
    public static func read(stem: String, explanation: String, options: [(text: String, explanation: String?)]) throws(Problem) -> QuestionTexts {
        let reader = MarkdownReader()
        func read(_ source: String, _ field: String) throws(Problem) -> RichText {
            do { return try reader.read(source) } catch { throw Problem(field: field, message: error.description) }
        }
        var readOptions: [Option] = []
        for (index, option) in options.enumerated() {
            let text = try read(option.text, "options[\(index)].text")
            if let problem = Self.optionProblem(text) { throw Problem(field: "options[\(index)].text", message: problem) }
            readOptions.append(Option(text: text, explanation: try option.explanation.map { source throws(Problem) in try read(source, "options[\(index)].explanation") }))
        }
        return QuestionTexts(stem: try read(stem, "stem"), explanation: try read(explanation, "explanation"), options: readOptions)
    }

    /// A question's markdown texts read: the trees, and the question's plain fields holding their
    /// plain text (what the question's columns keep). Options keep everything but their texts.
    public static func read(stem: String, explanation: String, options: [QuestionOption]) throws(Problem) -> (texts: QuestionTexts, stem: String, explanation: String, options: [QuestionOption]) {
        let texts = try read(stem: stem, explanation: explanation, options: options.map { ($0.text, $0.explanation) })
        var plainOptions = options
        for index in plainOptions.indices {
            plainOptions[index].text = texts.plainOption(index)
            plainOptions[index].explanation = texts.plainOptionExplanation(index)
        }
        return (texts, texts.plainStem, texts.plainExplanation, plainOptions)
    }

    /// The markdown an author edits, written back from the trees: the stem, the explanation,
    /// and `options` with their texts and explanations replaced.
    public func sources(options: [QuestionOption]) -> (stem: String, explanation: String, options: [QuestionOption]) {
        var written = options
        for index in written.indices where self.options.indices.contains(index) {
            written[index].text = MarkdownWriter.write(self.options[index].text)
            written[index].explanation = self.options[index].explanation.map(MarkdownWriter.write)
        }
        return (MarkdownWriter.write(stem), MarkdownWriter.write(explanation), written)
    }

    /// Why a tree cannot be an option's text (it stands in a label: one paragraph at most).
    public static func optionProblem(_ text: RichText) -> String? {
        switch text.blocks.count {
        case 0: return nil
        case 1: if case .paragraph = text.blocks[0] { return nil }
        default: break
        }
        return "an option is one line of text: no lists, tables, code blocks, quotes or pictures (put those in the stem)"
    }

    /// The plain text the question's columns hold: the stem's, the explanation's, each option's.
    public var plainStem: String { RichTextPlain.text(stem) }
    public var plainExplanation: String { RichTextPlain.text(explanation) }
    public func plainOption(_ index: Int) -> String { options.indices.contains(index) ? RichTextPlain.text(options[index].text) : "" }
    public func plainOptionExplanation(_ index: Int) -> String? { options.indices.contains(index) ? options[index].explanation.map(RichTextPlain.text) : nil }

    /// Every picture the texts show, in order.
    public var picturePaths: [String] {
        ([stem, explanation] + options.flatMap { [$0.text] + ($0.explanation.map { [$0] } ?? []) }).flatMap(\.picturePaths)
    }
}

extension RichText {
    /// Every picture this text shows (in quotes and lists too), in order.
    public var picturePaths: [String] {
        var paths: [String] = []
        var pending = blocks[...].reversed().map { $0 }
        while let block = pending.popLast() {
            switch block {
            case .picture(let picture): paths.append(picture.source)
            case .quote(let inner): pending += inner.reversed()
            case .list(_, _, let items): pending += items.flatMap { $0 }.reversed()
            case .paragraph, .code, .table, .math: break
            }
        }
        return paths
    }
}
