/// What the first attempts at mock exams say about one question.
public struct ItemStatistics: Sendable {
    public var attempts: Int
    /// The share of students who got it right (0…1).
    public var facility: Double
    /// The correlation of the item with the rest of the test (−1…1); nil when it cannot vary.
    public var discrimination: Double?
    /// The item's covariance with the rest of the test as a share of the largest possible at
    /// its facility; nil when it cannot vary.
    public var efficiency: Double?
    public var averageMilliseconds: Double?
    /// The share of students who picked each option, by option index (the kinds whose answers
    /// pick options).
    public var optionShares: [Int: Double]
    /// A fill-in question's wrong answers typed most often, with the share of attempts each.
    public var commonWrongAnswers: [(answer: String, share: Double)]
    /// A cloze question's gaps, in order: how often each was right, and its wrong answers
    /// given most often with their share of its attempts.
    public var gaps: [(facility: Double, commonWrong: [(answer: String, share: Double)])] = []

    public init(
        attempts: Int, facility: Double, discrimination: Double?, efficiency: Double?, averageMilliseconds: Double?, optionShares: [Int: Double],
        commonWrongAnswers: [(answer: String, share: Double)] = []
    ) {
        self.commonWrongAnswers = commonWrongAnswers
        self.attempts = attempts
        self.facility = facility
        self.discrimination = discrimination
        self.efficiency = efficiency
        self.averageMilliseconds = averageMilliseconds
        self.optionShares = optionShares
    }
}

/// Why a question needs a look.
public enum ItemFlag: String, Sendable, CaseIterable {
    /// It does not separate stronger students from weaker ones (efficiency under 15%).
    case lowEfficiency = "low-efficiency"
    /// Nearly everyone gets it right (facility above 0.95).
    case tooEasy = "too-easy"
    /// Nearly nobody gets it right (facility below 0.1).
    case tooHard = "too-hard"
    /// A wrong option nobody picks: it is not doing its job.
    case unusedOption = "unused-option"
    /// The correct option is the longest: test-wise students pick it without knowing.
    case longestIsKey = "longest-is-key"
}

/// Flags items that need review, by the classic rules of item analysis.
public enum ItemReview {
    /// Below this many attempts the statistics say too little to flag anything by them.
    public static let minimumAttempts = 5

    public static func flags(_ statistics: ItemStatistics?, kind: QuestionKind, key: [Int], optionTexts: [String]) -> [ItemFlag] {
        var flags: [ItemFlag] = []
        if let statistics, statistics.attempts >= minimumAttempts {
            if let efficiency = statistics.efficiency, efficiency < 0.15 { flags.append(.lowEfficiency) }
            if statistics.facility > 0.95 { flags.append(.tooEasy) }
            if statistics.facility < 0.1 { flags.append(.tooHard) }
            if kind.answerShape.picksOptions, optionTexts.indices.contains(where: { !key.contains($0) && (statistics.optionShares[$0] ?? 0) == 0 }) {
                flags.append(.unusedOption)
            }
        }
        // The longest-key flaw shows in the writing itself, attempts or not; only among words:
        // among numbers and addresses a longer one is no hint.
        let choices = switch kind.answerShape {
        case .oneOption, .someOptions: true
        case .order, .pairs, .text, .region, .gaps: false
        }
        if choices, optionTexts.allSatisfy(isText) {
            let keyLengths = key.filter(optionTexts.indices.contains).map { optionTexts[$0].count }
            let otherLengths = optionTexts.indices.filter { !key.contains($0) }.map { optionTexts[$0].count }
            if let shortestKey = keyLengths.min(), let longestOther = otherLengths.max(), shortestKey > longestOther { flags.append(.longestIsKey) }
        }
        return flags
    }

    /// Words rather than a number: some letter in it, and not a hexadecimal or binary number
    /// such as `0x1F` or `3FF` (a run of hex digits with at least one decimal digit).
    static func isText(_ text: String) -> Bool {
        let word = text.trimmingCharacters(in: " \t\n\r").lowercased()
        let digits = ["0x", "0b", "0o"].contains { word.hasPrefix($0) } ? word.dropFirst(2) : Substring(word)
        if !digits.isEmpty, digits.allSatisfy(\Character.isHexDigit), digits.contains(where: \Character.isNumber) { return false }
        return word.contains(where: \Character.isLetter)
    }
}
