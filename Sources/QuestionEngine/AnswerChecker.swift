/// The verdict on one answer.
public struct AnswerOutcome: Sendable, Equatable {
    /// All-or-nothing correctness.
    public var isCorrect: Bool
    /// Partial credit from 0 to 1 (1 when correct).
    public var score: Double

    public init(isCorrect: Bool, score: Double) {
        self.isCorrect = isCorrect
        self.score = score
    }
}

/// A response that is not an answer to the question at all (as opposed to a wrong answer).
public enum AnswerError: Error, Equatable, Sendable {
    /// Nothing chosen, or only blanks typed.
    case empty
    case outOfRange(Int)
    case duplicate(Int)
    case wrongCount(expected: Int, got: Int)
    /// A response of another kind's shape (text for a choice question, say).
    case wrongShape
    /// A typed answer longer than any accepted one can be.
    case tooLong

    /// The name the database, the browser and the shared fixture use for it.
    public var code: String {
        switch self {
        case .empty: "empty"
        case .outOfRange: "outOfRange"
        case .duplicate: "duplicate"
        case .wrongCount: "wrongCount"
        case .wrongShape: "wrongShape"
        case .tooLong: "tooLong"
        }
    }
}

/// Checks responses against keys, with partial credit where the kind has it: multiple choice
/// (right picks minus wrong ones), ordering (the longest run in the right relative order),
/// matching (right pairs), typed answers worth part of the marks and cloze gaps (each gap's
/// share of the marks, weighed by its weight; right when every gap is). The database's `answer_outcome` and the browser's offline checker
/// apply the same rules, held to the same cases (`Tests/Fixtures/answer-checking.json`).
public enum AnswerChecker {
    public static func check(_ key: AnswerKey, _ response: AnswerResponse) throws(AnswerError) -> AnswerOutcome {
        switch key {
        case .oneOption(let options, let right):
            let picks = try indexes(response, below: options)
            guard picks.count == 1 else { throw .wrongCount(expected: 1, got: picks.count) }
            return verdict(right.contains(picks[0]))
        case .someOptions(let options, let key):
            let picks = try indexes(response, below: options)
            let keySet = Set(key)
            let rightPicks = picks.filter(keySet.contains).count
            let wrongPicks = picks.count - rightPicks
            // Right picks minus wrong picks, floored at zero, as a share of the key.
            return AnswerOutcome(isCorrect: rightPicks == keySet.count && wrongPicks == 0, score: Double(max(0, rightPicks - wrongPicks)) / Double(keySet.count))
        case .order(let key):
            let order = try indexes(response, below: key.count)
            guard order.count == key.count else { throw .wrongCount(expected: key.count, got: order.count) }
            return AnswerOutcome(isCorrect: order == key, score: Double(longestCorrectlyOrdered(order, key)) / Double(key.count))
        case .pairs(let targets, let key):
            guard case .pairs(let given) = response else { throw .wrongShape }
            guard !given.isEmpty else { throw .empty }
            guard given.count == key.count else { throw .wrongCount(expected: key.count, got: given.count) }
            if let outside = given.first(where: { !(0..<targets).contains($0) }) { throw .outOfRange(outside) }
            let right = zip(given, key).filter { $0 == $1 }.count
            return AnswerOutcome(isCorrect: right == key.count, score: Double(right) / Double(key.count))
        case .text(let rule):
            guard case .text(let typed) = response else { throw .wrongShape }
            let answer = FillInRule.normalized(typed)
            guard !answer.isEmpty else { throw .empty }
            guard answer.unicodeScalars.count <= FillInRule.maximumLength else { throw .tooLong }
            return rule.outcome(answer)
        case .region(let regions, let key):
            switch response {
            case .point(let x, let y):
                // The first region the point lies in is the one picked; outside them all is a miss.
                guard let picked = regions.firstIndex(where: { $0.contains(x: x, y: y) }) else { return verdict(false) }
                return verdict(key.contains(picked))
            case .indexes:
                let picks = try indexes(response, below: regions.count)
                guard picks.count == 1 else { throw .wrongCount(expected: 1, got: picks.count) }
                return verdict(key.contains(picks[0]))
            case .pairs, .text, .gaps:
                throw .wrongShape
            }
        case .gaps(let gaps):
            guard case .gaps(let given) = response else { throw .wrongShape }
            guard given.count == gaps.count else { throw .wrongCount(expected: gaps.count, got: given.count) }
            let answers = given.map(FillInRule.normalized)
            guard answers.contains(where: { !$0.isEmpty }) else { throw .empty }
            var marks = 0.0, all = true
            for (index, (gap, answer)) in zip(gaps, answers).enumerated() {
                guard answer.unicodeScalars.count <= FillInRule.maximumLength else { throw .tooLong }
                // A choice gap takes only one of its choices (or nothing).
                if let choices = gap.choices, !answer.isEmpty, !choices.contains(where: { FillInRule.normalized($0) == answer }) { throw .outOfRange(index) }
                let outcome = answer.isEmpty ? AnswerOutcome(isCorrect: false, score: 0) : gap.rule.outcome(answer)
                marks += outcome.score * Double(gap.marks)
                all = all && outcome.isCorrect
            }
            let total = gaps.reduce(0) { $0 + $1.marks }
            return AnswerOutcome(isCorrect: all, score: total > 0 ? marks / Double(total) : 0)
        }
    }

    private static func verdict(_ right: Bool) -> AnswerOutcome { AnswerOutcome(isCorrect: right, score: right ? 1 : 0) }

    /// The option indexes of a response to a choice kind: present, in range, each once.
    private static func indexes(_ response: AnswerResponse, below count: Int) throws(AnswerError) -> [Int] {
        guard case .indexes(let picks) = response else { throw .wrongShape }
        guard !picks.isEmpty else { throw .empty }
        var seen = Set<Int>()
        for index in picks {
            guard index >= 0 && index < count else { throw .outOfRange(index) }
            guard seen.insert(index).inserted else { throw .duplicate(index) }
        }
        return picks
    }

    /// The length of the longest subsequence of `response` in the key's relative order: the
    /// longest increasing run of key positions (patience sorting, n log n).
    static func longestCorrectlyOrdered(_ response: [Int], _ key: [Int]) -> Int {
        var position: [Int: Int] = [:]
        for (index, option) in key.enumerated() { position[option] = index }
        var tails: [Int] = []
        for option in response {
            guard let value = position[option] else { continue }
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if tails[middle] < value { low = middle + 1 } else { high = middle }
            }
            if low == tails.count { tails.append(value) } else { tails[low] = value }
        }
        return tails.count
    }
}

extension AnswerChecker {
    /// The options a response picked, for showing it and for counting picks per option: the
    /// choices, the steps in the order given, the region a point fell in (none for a miss);
    /// nothing for a matching or typed answer, which picks no option.
    public static func chosenOptions(_ key: AnswerKey, _ response: AnswerResponse) -> [Int] {
        switch (key, response) {
        case (.region(let regions, _), .point(let x, let y)):
            return regions.firstIndex { $0.contains(x: x, y: y) }.map { [$0] } ?? []
        case (_, .indexes(let indexes)):
            return indexes
        case (_, .pairs), (_, .text), (_, .point), (_, .gaps):
            return []
        }
    }
}
