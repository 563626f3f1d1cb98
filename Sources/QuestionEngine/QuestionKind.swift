/// The four kinds of question.
public enum QuestionKind: String, Sendable, Codable, CaseIterable {
    /// One correct option.
    case singleChoice = "single-choice"
    /// One or more correct options.
    case multiChoice = "multi-choice"
    /// Put every option in the right order.
    case ordering
    /// A stem with a code block; one correct option.
    case codeSnippet = "code-snippet"
}

/// One answer option, in the one shape stored in `questions.options`.
public struct QuestionOption: Sendable, Codable, Equatable {
    public var id: String
    public var text: String
    public var imageUrl: String?
    public var code: String?
    public var explanation: String?

    public init(id: String, text: String, imageUrl: String? = nil, code: String? = nil, explanation: String? = nil) {
        self.id = id
        self.text = text
        self.imageUrl = imageUrl
        self.code = code
        self.explanation = explanation
    }
}
