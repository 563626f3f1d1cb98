/// What a kind needs beyond its options and key, stored in `questions.details` and written as
/// the question's own fields in format 1: a matching question's targets, a fill-in question's
/// accepted answers and how they are compared, a hotspot question's image.
public struct QuestionDetails: Sendable, Codable, Equatable {
    /// Matching: what the options are matched with (more than the options: the rest are
    /// distractors).
    public var targets: [MatchTarget]?
    /// Fill-in: the answers taken as right.
    public var accepted: [String]?
    /// Fill-in: how a typed answer is compared with them (exact when absent).
    public var match: FillInMatch?
    /// Fill-in, numeric: how far from an accepted number an answer may be (0 when absent).
    public var tolerance: Double?
    /// Fill-in: answers that are partly right, each worth a share of the marks.
    public var partial: [PartialAnswer]?
    /// Hotspot: the image whose regions the options are.
    public var imageUrl: String?
    /// Cloze: the gaps, in the order the text numbers them (`{#1}` is the first).
    public var gaps: [ClozeGap]?

    public init(
        targets: [MatchTarget]? = nil, accepted: [String]? = nil, match: FillInMatch? = nil, tolerance: Double? = nil, partial: [PartialAnswer]? = nil,
        imageUrl: String? = nil, gaps: [ClozeGap]? = nil
    ) {
        self.targets = targets
        self.accepted = accepted
        self.match = match
        self.tolerance = tolerance
        self.partial = partial
        self.imageUrl = imageUrl
        self.gaps = gaps
    }

    /// Nothing beyond options and key (the four choice kinds).
    public static let none = QuestionDetails()
}

/// One target of a matching question.
public struct MatchTarget: Sendable, Codable, Equatable {
    public var id: String
    public var text: String

    public init(id: String, text: String) {
        self.id = id
        self.text = text
    }
}

/// A typed answer worth part of the marks ("york" for "New York": half of them), compared as
/// the question's accepted answers are; a number's own tolerance, when it has one, replaces the
/// question's.
public struct PartialAnswer: Sendable, Codable, Equatable {
    public var answer: String
    /// The share of the marks, more than 0 and less than 1.
    public var share: Double
    public var tolerance: Double?

    public init(answer: String, share: Double, tolerance: Double? = nil) {
        self.answer = answer
        self.share = share
        self.tolerance = tolerance
    }
}

/// How a fill-in answer is compared with the accepted ones, after both are normalised
/// (`FillInRule.normalized`).
public enum FillInMatch: String, Sendable, Codable, CaseIterable {
    /// The same text.
    case exact
    /// The same text in lower case.
    case caseInsensitive = "case-insensitive"
    /// A number within the tolerance of an accepted one.
    case numeric
}
