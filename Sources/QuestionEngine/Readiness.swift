/// What readiness knows of one domain of an exam.
public struct DomainRecall: Sendable, Equatable {
    /// The domain's blueprint weight.
    public var weight: Int
    /// Published questions in the domain.
    public var questions: Int
    /// Of those, how many the student has a card for.
    public var seen: Int
    /// The sum of the seen cards' current retrievability (each 0…1).
    public var recallSum: Double

    public init(weight: Int, questions: Int, seen: Int, recallSum: Double) {
        self.weight = weight
        self.questions = questions
        self.seen = seen
        self.recallSum = recallSum
    }

    /// The expected share of this domain's questions answered right today.
    public func expectedScore(prior: Double = Readiness.unseenPrior) -> Double {
        guard questions > 0 else { return prior }
        let unseen = max(0, questions - seen)
        return min(1, max(0, (recallSum + Double(unseen) * prior) / Double(max(questions, seen))))
    }
}

/// A predicted exam score: each domain's expected score (the mean retrievability of its
/// questions, unseen ones at a prior), weighted by the blueprint.
public enum Readiness {
    /// The chance of getting an unseen question right: a guess among four options. It keeps a
    /// new student's readiness honest (low) rather than unknown.
    public static let unseenPrior = 0.25

    /// 0…1; rises with every card's retrievability.
    public static func predict(_ domains: [DomainRecall], prior: Double = unseenPrior) -> Double {
        let totalWeight = domains.reduce(0) { $0 + max(0, $1.weight) }
        guard totalWeight > 0 else { return prior }
        return domains.reduce(0.0) { $0 + Double(max(0, $1.weight)) * $1.expectedScore(prior: prior) } / Double(totalWeight)
    }
}
