/// One gap of a cloze question: filled by choosing one of its `choices` (a list on the page)
/// or, without choices, by typing. Either way the answer is compared as a fill-in question's
/// is — accepted answers, partly right ones with their share, exact, case-insensitive or
/// numeric with a tolerance — so a choice gap's key is the text of its right choice.
public struct ClozeGap: Sendable, Codable, Equatable {
    /// The choices offered, in their order; absent for a typed gap.
    public var choices: [String]?
    /// The answers taken as right (for a choice gap, choices).
    public var accepted: [String]
    /// How a typed answer is compared (exact when absent; always exact for a choice gap).
    public var match: FillInMatch?
    public var tolerance: Double?
    /// Answers worth part of this gap's marks.
    public var partial: [PartialAnswer]?
    /// The gap's share of the question's marks against the other gaps' (1 when absent).
    public var weight: Int?

    public init(
        choices: [String]? = nil, accepted: [String], match: FillInMatch? = nil, tolerance: Double? = nil, partial: [PartialAnswer]? = nil,
        weight: Int? = nil
    ) {
        self.choices = choices
        self.accepted = accepted
        self.match = match
        self.tolerance = tolerance
        self.partial = partial
        self.weight = weight
    }

    /// How an answer to this gap is judged.
    public var rule: FillInRule {
        FillInRule(accepted: accepted, match: match ?? .exact, tolerance: tolerance ?? 0, partial: partial ?? [])
    }

    /// The weight counted in the question's score.
    public var marks: Int { weight ?? 1 }

    /// The gap with every answer and choice passed through `transform` (an importer decoding
    /// its markup's entities, say).
    public func mappingTexts(_ transform: (String) -> String) -> ClozeGap {
        var gap = self
        gap.choices = choices?.map(transform)
        gap.accepted = accepted.map(transform)
        gap.partial = partial?.map { PartialAnswer(answer: transform($0.answer), share: $0.share, tolerance: $0.tolerance) }
        return gap
    }
}
