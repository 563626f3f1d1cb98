import Foundation

/// How well a student recalled a card: FSRS's four grades.
public enum FSRSRating: Int, Sendable, Codable, CaseIterable {
    case again = 1, hard, good, easy
}

/// Where a card is in its life: being learned, in review, or being relearned after a lapse.
public enum FSRSState: String, Sendable, Codable {
    case learning, review, relearning
}

/// One card's memory state: what the scheduler carries from one review to the next.
public struct FSRSCard: Sendable, Equatable, Codable {
    public var state: FSRSState = .learning
    /// The learning or relearning step, nil in review.
    public var step: Int? = 0
    /// Days for retrievability to fall to 90%; nil before the first review.
    public var stability: Double?
    /// 1 (easy) … 10 (hard); nil before the first review.
    public var difficulty: Double?
    public var due: Date
    public var lastReview: Date?

    /// A new card, due at once.
    public init(due: Date) { self.due = due }
}

/// The FSRS-6 parameters: 21 weights, the desired retention, learning steps.
public struct FSRSParameters: Sendable, Equatable {
    /// FSRS-6's default weights.
    public static let defaultWeights: [Double] = [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614,
        0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
    ]

    public var weights: [Double]
    public var desiredRetention: Double
    public var learningSteps: [TimeInterval]
    public var relearningSteps: [TimeInterval]
    public var maximumIntervalDays: Int

    public init(
        weights: [Double] = defaultWeights, desiredRetention: Double = 0.9, learningSteps: [TimeInterval] = [60, 600],
        relearningSteps: [TimeInterval] = [600], maximumIntervalDays: Int = 36_500
    ) {
        precondition(weights.count == 21, "FSRS-6 takes 21 weights")
        self.weights = weights
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumIntervalDays = maximumIntervalDays
    }
}

/// The FSRS-6 scheduler, from its published formulas. Pure: the review time is passed in, and
/// there is no fuzzing, so the same history always gives the same schedule.
public struct FSRSScheduler: Sendable {
    public let parameters: FSRSParameters
    private let decay: Double
    private let factor: Double
    static let minimumStability = 0.001

    public init(parameters: FSRSParameters = FSRSParameters()) {
        self.parameters = parameters
        decay = -parameters.weights[20]
        factor = pow(0.9, 1 / decay) - 1
    }

    private var w: [Double] { parameters.weights }

    /// The probability of recall at `date` (whole days since the last review, as FSRS counts).
    public func retrievability(of card: FSRSCard, at date: Date) -> Double {
        guard let lastReview = card.lastReview, let stability = card.stability else { return 0 }
        let days = max(0, Self.wholeDays(from: lastReview, to: date))
        return pow(1 + factor * Double(days) / stability, decay)
    }

    /// The card after a review with `rating` at `date`.
    public func review(_ card: FSRSCard, rating: FSRSRating, at date: Date) -> FSRSCard {
        var card = card
        let grade = Double(rating.rawValue)
        let daysSinceLast = card.lastReview.map { Self.wholeDays(from: $0, to: date) }
        let interval: TimeInterval

        func updateMemory() {
            if let stability = card.stability, let difficulty = card.difficulty {
                if let days = daysSinceLast, days < 1 {
                    card.stability = shortTermStability(stability, grade)
                } else {
                    card.stability = nextStability(difficulty, stability, retrievability(of: card, at: date), rating)
                }
                card.difficulty = nextDifficulty(difficulty, grade)
            } else {
                card.stability = clampStability(w[rating.rawValue - 1])
                card.difficulty = clampDifficulty(initialDifficulty(grade))
            }
        }

        switch card.state {
        case .learning, .relearning:
            updateMemory()
            let steps = card.state == .learning ? parameters.learningSteps : parameters.relearningSteps
            let step = card.step ?? 0
            if steps.isEmpty || (step >= steps.count && rating != .again) {
                interval = graduate(&card)
            } else {
                switch rating {
                case .again:
                    card.step = 0
                    interval = steps[0]
                case .hard:
                    if step == 0 && steps.count == 1 {
                        interval = steps[0] * 1.5
                    } else if step == 0 {
                        interval = (steps[0] + steps[1]) / 2
                    } else {
                        interval = steps[step]
                    }
                case .good:
                    if step + 1 == steps.count {
                        interval = graduate(&card)
                    } else {
                        card.step = step + 1
                        interval = steps[step + 1]
                    }
                case .easy:
                    interval = graduate(&card)
                }
            }
        case .review:
            updateMemory()
            if rating == .again && !parameters.relearningSteps.isEmpty {
                card.state = .relearning
                card.step = 0
                interval = parameters.relearningSteps[0]
            } else {
                interval = TimeInterval(nextIntervalDays(card.stability!)) * 86_400
            }
        }
        card.due = date.addingTimeInterval(interval)
        card.lastReview = date
        return card
    }

    private func graduate(_ card: inout FSRSCard) -> TimeInterval {
        card.state = .review
        card.step = nil
        return TimeInterval(nextIntervalDays(card.stability!)) * 86_400
    }

    /// Whole days until retrievability falls to the desired retention, within [1, maximum].
    public func nextIntervalDays(_ stability: Double) -> Int {
        let days = (stability / factor * (pow(parameters.desiredRetention, 1 / decay) - 1)).rounded()
        return min(max(1, Int(days)), parameters.maximumIntervalDays)
    }

    func initialDifficulty(_ grade: Double) -> Double {
        w[4] - exp(w[5] * (grade - 1)) + 1
    }

    func nextDifficulty(_ difficulty: Double, _ grade: Double) -> Double {
        let delta = -(w[6] * (grade - 3))
        let damped = difficulty + (10 - difficulty) * delta / 9
        // Mean reversion towards the (unclamped) initial difficulty of an Easy first answer.
        return clampDifficulty(w[7] * initialDifficulty(4) + (1 - w[7]) * damped)
    }

    func shortTermStability(_ stability: Double, _ grade: Double) -> Double {
        var increase = exp(w[17] * (grade - 3 + w[18])) * pow(stability, -w[19])
        // Only a lapse may shrink stability within a day (as the reference scheduler does).
        if grade >= 2 { increase = max(increase, 1) }
        return clampStability(stability * increase)
    }

    func nextStability(_ difficulty: Double, _ stability: Double, _ retrievability: Double, _ rating: FSRSRating) -> Double {
        if rating == .again {
            let longTerm = w[11] * pow(difficulty, -w[12]) * (pow(stability + 1, w[13]) - 1) * exp((1 - retrievability) * w[14])
            let shortTerm = stability / exp(w[17] * w[18])
            return clampStability(min(longTerm, shortTerm))
        }
        let hardPenalty = rating == .hard ? w[15] : 1
        let easyBonus = rating == .easy ? w[16] : 1
        return clampStability(stability * (1 + exp(w[8]) * (11 - difficulty) * pow(stability, -w[9])
            * (exp((1 - retrievability) * w[10]) - 1) * hardPenalty * easyBonus))
    }

    private func clampStability(_ value: Double) -> Double { max(value, Self.minimumStability) }
    private func clampDifficulty(_ value: Double) -> Double { min(max(value, 1), 10) }

    /// Whole days between two times, rounded down (as elapsed days count in FSRS).
    static func wholeDays(from start: Date, to end: Date) -> Int {
        Int((end.timeIntervalSince(start) / 86_400).rounded(.down))
    }
}
