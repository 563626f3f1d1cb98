/// A question's key in the terms of its kind: what checking an answer needs, and nothing else.
public enum AnswerKey: Sendable, Equatable {
    /// One option to choose among `options` (single choice, code snippet); the key's options are
    /// each fully right (usually one; a bank may mark several as equally right).
    case oneOption(options: Int, key: [Int])
    /// The right options among `options` (multiple choice).
    case someOptions(options: Int, key: [Int])
    /// Every option, in this order.
    case order(key: [Int])
    /// For each option, the index of its target among `targets`.
    case pairs(targets: Int, key: [Int])
    /// The accepted answers and how they compare.
    case text(FillInRule)
    /// The image's regions and which of them are right.
    case region(regions: [HotspotRegion], key: [Int])
    /// Each gap's choices (if any), how its answer is judged and its weight.
    case gaps([ClozeGap])

    /// The key of a stored question (one the validator passed).
    public init(kind: QuestionKind, options: [QuestionOption], correct: [Int], details: QuestionDetails) {
        switch kind {
        case .singleChoice, .codeSnippet: self = .oneOption(options: options.count, key: correct)
        case .multiChoice: self = .someOptions(options: options.count, key: correct)
        case .ordering: self = .order(key: correct)
        case .matching: self = .pairs(targets: details.targets?.count ?? 0, key: correct)
        case .fillIn: self = .text(FillInRule(accepted: details.accepted ?? [], match: details.match ?? .exact, tolerance: details.tolerance ?? 0, partial: details.partial ?? []))
        case .hotspot: self = .region(regions: options.map { $0.region ?? HotspotRegion(shape: .rect, coords: []) }, key: correct)
        case .cloze: self = .gaps(details.gaps ?? [])
        }
    }
}
