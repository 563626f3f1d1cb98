import QuestionEngine

/// Format 1's `markup`: a question (or its exam, for all its questions) whose texts are
/// markdown is stored as trees (`QuestionTexts`) with its plain fields holding their plain
/// text, and exported back as markdown written from the trees.
extension ContentDocument.Question {
    /// The markups format 1 knows.
    public static let markups: Set<String> = ["plain", "markdown"]

    /// Whether this question's texts are markdown, by its own `markup` or else its exam's.
    public func isMarkdown(examMarkup: String?) -> Bool { (markup ?? examMarkup) == "markdown" }

    /// The question as stored: for markdown, its texts read into trees and its stem,
    /// explanation and options' texts replaced by their plain text; plain text as it is.
    public func stored(examMarkup: String?) throws(QuestionTexts.Problem) -> (question: Self, texts: QuestionTexts?) {
        guard isMarkdown(examMarkup: examMarkup) else { return (self, nil) }
        let texts = try QuestionTexts.read(stem: stem, explanation: explanation ?? "", options: optionSources)
        var plain = self
        plain.markup = nil
        plain.stem = texts.plainStem
        plain.explanation = texts.plainExplanation
        plain.options = replacingOptionTexts { index in (texts.plainOption(index), texts.plainOptionExplanation(index)) }
        return (plain, texts)
    }

    /// A stored question with trees, written back as markdown (what an export carries).
    public func writtenAsMarkdown(_ texts: QuestionTexts) -> Self {
        var written = self
        written.markup = "markdown"
        written.stem = MarkdownWriter.write(texts.stem)
        let explanation = MarkdownWriter.write(texts.explanation)
        written.explanation = explanation.isEmpty ? nil : explanation
        written.options = replacingOptionTexts { index in
            texts.options.indices.contains(index)
                ? (MarkdownWriter.write(texts.options[index].text), texts.options[index].explanation.map(MarkdownWriter.write)) : nil
        }
        return written
    }

    /// A plain question with trees for some of its texts, written as markdown: those texts from
    /// their trees, every other text as markdown that reads back into exactly its words.
    public func writtenAsMarkdown(stem: RichText?, explanation: RichText?, options trees: [(text: RichText?, explanation: RichText?)]) -> Self {
        func escaped(_ text: String) -> String { MarkdownWriter.write(RichText.words(text)) }
        var written = self
        written.markup = "markdown"
        written.stem = stem.map(MarkdownWriter.write) ?? escaped(self.stem)
        written.explanation = explanation.map(MarkdownWriter.write) ?? self.explanation.map(escaped)
        written.options = replacingOptionTexts { index in
            let source = optionSources[index], tree: (text: RichText?, explanation: RichText?) = index < trees.count ? trees[index] : (nil, nil)
            return (tree.text.map(MarkdownWriter.write) ?? escaped(source.text), tree.explanation.map(MarkdownWriter.write) ?? source.explanation.map(escaped))
        }
        return written
    }

    /// Each option's `text` and `explanation` as written (an option that is not an object, or
    /// holds no text, reads as empty: the shape's check names it).
    var optionSources: [(text: String, explanation: String?)] {
        guard case .array(let items) = options else { return [] }
        return items.map { item in
            guard case .object(let fields) = item else { return ("", nil) }
            var explanation: String?
            if case .string(let text)? = fields["explanation"] { explanation = text }
            if case .string(let text)? = fields["text"] { return (text, explanation) }
            return ("", explanation)
        }
    }

    /// The options with each one's text and explanation replaced by `replacement(index)` (nil
    /// keeps the option as it is; a nil explanation removes it).
    private func replacingOptionTexts(_ replacement: (Int) -> (text: String, explanation: String?)?) -> JSONValue {
        guard case .array(let items) = options else { return options }
        return .array(items.enumerated().map { index, item in
            guard case .object(var fields) = item, let (text, explanation) = replacement(index) else { return item }
            fields["text"] = .string(text)
            fields["explanation"] = explanation.map(JSONValue.string)
            return .object(fields)
        })
    }
}
