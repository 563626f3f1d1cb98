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
    case empty
    case outOfRange(Int)
    case duplicate(Int)
    case wrongCount(expected: Int, got: Int)
}

/// Checks responses (chosen option indexes; for ordering, the order given) against the key.
public enum AnswerChecker {
    public static func check(kind: QuestionKind, key: [Int], optionCount: Int, response: [Int]) throws(AnswerError) -> AnswerOutcome {
        guard !response.isEmpty else { throw .empty }
        var seen = Set<Int>()
        for index in response {
            guard index >= 0 && index < optionCount else { throw .outOfRange(index) }
            guard seen.insert(index).inserted else { throw .duplicate(index) }
        }
        switch kind {
        case .singleChoice, .codeSnippet:
            guard response.count == 1 else { throw .wrongCount(expected: 1, got: response.count) }
            let right = response[0] == key.first
            return AnswerOutcome(isCorrect: right, score: right ? 1 : 0)
        case .multiChoice:
            let keySet = Set(key)
            let rightPicks = response.filter(keySet.contains).count
            let wrongPicks = response.count - rightPicks
            let exact = rightPicks == keySet.count && wrongPicks == 0
            // Right picks minus wrong picks, floored at zero, as a share of the key.
            return AnswerOutcome(isCorrect: exact, score: Double(max(0, rightPicks - wrongPicks)) / Double(keySet.count))
        case .ordering:
            guard response.count == optionCount else { throw .wrongCount(expected: optionCount, got: response.count) }
            let exact = response == key
            return AnswerOutcome(isCorrect: exact, score: Double(longestCorrectlyOrdered(response, key)) / Double(key.count))
        }
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
