import Foundation

/// A question as selection sees it.
public struct Candidate: Sendable, Equatable {
    public var id: UUID
    public var domain: String
    public var difficulty: Int
    /// Its kind (`single-choice`, `cloze`, …), for a practice of chosen kinds.
    public var kind: String

    public init(id: UUID, domain: String, difficulty: Int, kind: String = "") {
        self.id = id
        self.domain = domain
        self.difficulty = difficulty
        self.kind = kind
    }
}

/// A question the student holds a card for, as final-days review sees it.
public struct StudiedCard: Sendable, Equatable {
    public var id: UUID
    public var domain: String
    public var due: Date
    /// Its retrievability now, 0…1.
    public var recall: Double

    public init(id: UUID, domain: String, due: Date, recall: Double) {
        self.id = id
        self.domain = domain
        self.due = due
        self.recall = recall
    }
}

/// Chooses a session's questions. Deterministic for a seed, and never the same question twice.
public enum QuestionSelector {
    /// Practice: questions from the chosen domains within a difficulty range, in random order.
    public static func practice(
        _ pool: [Candidate], domains: Set<String>? = nil, difficulty: ClosedRange<Int> = 1...5, count: Int, seed: UInt64
    ) -> [UUID] {
        var random = SplitMix64(seed: seed)
        let eligible = unique(pool).filter { (domains?.contains($0.domain) ?? true) && difficulty.contains($0.difficulty) }
        return Array(eligible.shuffled(using: &random).prefix(max(0, count)).map(\.id))
    }

    /// Mock exam: `count` questions drawn per domain in proportion to the blueprint weights
    /// (largest remainders), each domain's share spread across difficulties.
    public static func mockExam(_ pool: [Candidate], blueprint: [String: Int], count: Int, seed: UInt64) -> [UUID] {
        var random = SplitMix64(seed: seed)
        let byDomain = Dictionary(grouping: unique(pool), by: \.domain)
        let quotas = apportion(count, weights: blueprint.filter { byDomain[$0.key] != nil })
        var chosen: [UUID] = []
        for domain in quotas.keys.sorted() {
            chosen += spreadByDifficulty(byDomain[domain] ?? [], count: quotas[domain]!, random: &random)
        }
        return chosen.shuffled(using: &random)
    }

    /// Review: the questions due by `dueBy` (the end of the student's day), most overdue
    /// first, then new ones up to `newLimit`.
    public static func review(due: [(id: UUID, due: Date)], dueBy: Date, unseen: [Candidate], newLimit: Int, count: Int, seed: UInt64) -> [UUID] {
        var random = SplitMix64(seed: seed)
        var seen = Set<UUID>()
        let overdue = due.filter { $0.due <= dueBy }.sorted { ($0.due, $0.id.uuidString) < ($1.due, $1.id.uuidString) }.map(\.id)
            .filter { seen.insert($0).inserted }
        let fresh = unseen.shuffled(using: &random).map(\.id).filter { seen.insert($0).inserted }.prefix(max(0, newLimit))
        return Array((overdue + fresh).prefix(max(0, count)))
    }

    /// Review in the final days before an exam (`ExamDayPlan`): no new questions; the studied
    /// ones due by `dueBy` first, then the rest of the studied ones, each group taken domain by
    /// domain in order of need (`priority`, highest first) and least recalled first within one.
    public static func finalStretch(_ cards: [StudiedCard], dueBy: Date, priority: [String: Double], count: Int) -> [UUID] {
        func need(_ card: StudiedCard) -> Double { priority[card.domain] ?? 0 }
        let ordered = cards.sorted { left, right in
            let leftDue = left.due <= dueBy, rightDue = right.due <= dueBy
            if leftDue != rightDue { return leftDue }
            if need(left) != need(right) { return need(left) > need(right) }
            if left.recall != right.recall { return left.recall < right.recall }
            return left.id.uuidString < right.id.uuidString
        }
        var seen = Set<UUID>()
        return Array(ordered.map(\.id).filter { seen.insert($0).inserted }.prefix(max(0, count)))
    }

    /// Weak spots: the domains with the lowest recall first, drawing from each in turn.
    public static func weakSpots(_ pool: [Candidate], recallByDomain: [String: Double], count: Int, seed: UInt64) -> [UUID] {
        var random = SplitMix64(seed: seed)
        let byDomain = Dictionary(grouping: unique(pool), by: \.domain).mapValues { $0.shuffled(using: &random) }
        let order = byDomain.keys.sorted { (recallByDomain[$0] ?? 0, $0) < (recallByDomain[$1] ?? 0, $1) }
        var chosen: [UUID] = []
        for domain in order where chosen.count < count {
            chosen += byDomain[domain]!.prefix(count - chosen.count).map(\.id)
        }
        return chosen
    }

    /// Splits `total` by `weights` with the largest-remainder method (ties by name).
    static func apportion(_ total: Int, weights: [String: Int]) -> [String: Int] {
        let sum = weights.values.reduce(0, +)
        guard sum > 0, total > 0 else { return weights.mapValues { _ in 0 } }
        var quotas: [String: Int] = [:]
        var remainders: [(String, Double)] = []
        for (name, weight) in weights {
            let exact = Double(total) * Double(weight) / Double(sum)
            quotas[name] = Int(exact)
            remainders.append((name, exact - Double(Int(exact))))
        }
        let missing = total - quotas.values.reduce(0, +)
        for (name, _) in remainders.sorted(by: { ($0.1, $1.0) > ($1.1, $0.0) }).prefix(missing) { quotas[name]! += 1 }
        return quotas
    }

    /// Takes `count` questions, one difficulty at a time in turn, so no level is left out.
    static func spreadByDifficulty(_ questions: [Candidate], count: Int, random: inout SplitMix64) -> [UUID] {
        var levels = Dictionary(grouping: questions.shuffled(using: &random), by: \.difficulty)
        var chosen: [UUID] = []
        while chosen.count < count, !levels.isEmpty {
            for level in levels.keys.sorted() where chosen.count < count {
                chosen.append(levels[level]!.removeFirst().id)
                if levels[level]!.isEmpty { levels[level] = nil }
            }
        }
        return chosen
    }

    private static func unique(_ pool: [Candidate]) -> [Candidate] {
        var seen = Set<UUID>()
        return pool.filter { seen.insert($0.id).inserted }
    }
}

/// SplitMix64, the seeded generator behind every random choice of the engine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
