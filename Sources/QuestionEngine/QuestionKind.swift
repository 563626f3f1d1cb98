/// The kinds of question. Every decision that depends on the kind is an exhaustive `switch`
/// over this enum (never a `default:`), so a new kind is named by the compiler wherever it
/// needs a decision; an unknown kind read from the database or an import is an error, never a
/// fallback.
public enum QuestionKind: String, Sendable, Codable, CaseIterable {
    /// One correct option.
    case singleChoice = "single-choice"
    /// One or more correct options.
    case multiChoice = "multi-choice"
    /// Put every option in the right order.
    case ordering
    /// A stem with a code block; one correct option.
    case codeSnippet = "code-snippet"
    /// Each option (a prompt) is matched with one of the targets.
    case matching
    /// The answer is typed: a word, an address, a number within a tolerance.
    case fillIn = "fill-in"
    /// A part of an image is clicked (or chosen from the list of its labelled regions).
    case hotspot
    /// A text with numbered gaps, each filled by choosing from a list or by typing.
    case cloze

    /// How a student answers a question of this kind.
    public var answerShape: AnswerShape {
        switch self {
        case .singleChoice, .codeSnippet: .oneOption
        case .multiChoice: .someOptions
        case .ordering: .order
        case .matching: .pairs
        case .fillIn: .text
        case .hotspot: .region
        case .cloze: .gaps
        }
    }
}

/// The ways of answering, each with its own form on a page.
public enum AnswerShape: String, Sendable, CaseIterable {
    /// One option (radio buttons).
    case oneOption = "one-option"
    /// Any number of options (checkboxes).
    case someOptions = "some-options"
    /// Every option in an order (a position for each).
    case order
    /// A target for each option (a select per prompt).
    case pairs
    /// Typed text.
    case text
    /// A point on an image, or one of its labelled regions.
    case region
    /// A text or a choice for each gap of a passage.
    case gaps

    /// Whether the options are choices whose picks can be counted per option (item statistics'
    /// option shares, the unused-option and longest-key flags).
    public var picksOptions: Bool {
        switch self {
        case .oneOption, .someOptions, .region: true
        case .order, .pairs, .text, .gaps: false
        }
    }
}

/// One answer option, in the one shape stored in `questions.options`: a choice, a step of an
/// ordering, a matching prompt, or a hotspot's labelled region.
public struct QuestionOption: Sendable, Codable, Equatable {
    public var id: String
    public var text: String
    public var imageUrl: String?
    public var code: String?
    public var explanation: String?
    /// A hotspot option's area of the image.
    public var region: HotspotRegion?

    public init(id: String, text: String, imageUrl: String? = nil, code: String? = nil, explanation: String? = nil, region: HotspotRegion? = nil) {
        self.id = id
        self.text = text
        self.imageUrl = imageUrl
        self.code = code
        self.explanation = explanation
        self.region = region
    }
}
