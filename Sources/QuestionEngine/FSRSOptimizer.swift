import Foundation

/// One review of a card's history, for fitting weights: when it was, and how it went.
public struct FSRSReview: Sendable, Equatable, Codable {
    /// How the review went.
    public var rating: FSRSRating
    /// When it was made.
    public var at: Date

    /// A review rated `rating` at `at`.
    public init(rating: FSRSRating, at: Date) {
        self.rating = rating
        self.at = at
    }
}

/// Weights fitted to a history, with how well they and the defaults predict it.
public struct FSRSFit: Sendable, Equatable {
    /// The 21 fitted weights (within `FSRSOptimizer.bounds`).
    public var weights: [Double]
    /// Mean binary cross-entropy of the fitted weights' predictions on the scored reviews.
    public var logLoss: Double
    /// The same for the default weights.
    public var logLossBefore: Double
    /// Reviews scored: those made on a later day than the card's previous review.
    public var reviews: Int
}

/// Fits the 21 FSRS-6 weights to a student's history: the objective of the reference optimizer
/// — the binary cross-entropy of the predicted retrievability of each review made on a later day
/// than the previous one (recalled: any rating above Again), same-day reviews only moving the
/// state — minimised by Adam with every weight kept within the reference's bounds, plus a pull
/// towards the defaults that fades as the history grows. Gradients are exact (forward-mode
/// dual numbers through the same formulas as `FSRSScheduler`), the order of cards is the input's,
/// so a history always gives the same weights.
public enum FSRSOptimizer {
    /// The reference optimizer's bounds for each weight.
    public static let bounds: [ClosedRange<Double>] = [
        0.001...100, 0.001...100, 0.001...100, 0.001...100, 1...10, 0.001...4, 0.001...4, 0.001...0.75, 0...4.5, 0...0.8,
        0.001...3.5, 0.001...5, 0.001...0.25, 0.001...0.9, 0...4, 0...1, 1...6, 0...2, 0...2, 0...0.8, 0.1...0.8,
    ]

    /// How strongly the weights are held to the defaults: the squared distance of each weight
    /// from its default, in tenths of its bounds' width, summed and weighed as this many
    /// reviews' loss, spread over the history. Over 200 reviews moving the decay from 0.15 to
    /// 0.35 costs 0.08 a review, more than better predictions gain; over 20,000, 0.001.
    public static let priorReviews = 2.0

    /// Passes over the history (at least), reviews per Adam step, and the fewest steps a fit
    /// takes: a small history is passed over more often, since Adam moves each weight by about
    /// the learning rate a step.
    static let epochs = 5, batchSize = 512, leastSteps = 300
    static let learningRate = 0.04

    /// The weights fitted to `histories` (each card's reviews in time order).
    public static func fit(_ histories: [[FSRSReview]]) -> FSRSFit {
        let cards = histories.map(Self.steps)
        let scored = cards.reduce(0) { $0 + $1.filter(\.isScored).count }
        let defaults = FSRSParameters.defaultWeights
        var weights = defaults
        if scored > 0 {
            var adam = Adam(count: defaults.count)
            let batches = Self.batches(cards)
            let passes = max(epochs, (leastSteps + batches.count - 1) / batches.count)
            let totalSteps = passes * batches.count
            var stepNumber = 0
            for _ in 0..<passes {
                for batch in batches {
                    let parameters = weights.indices.map { Dual(weights[$0], seed: $0) }
                    var loss = Dual(0)
                    var count = 0
                    for card in batch {
                        let (cardLoss, cardCount) = Self.loss(card, parameters)
                        loss = loss + cardLoss
                        count += cardCount
                    }
                    guard count > 0 else { continue }
                    // Per review, the batch's loss and the pull's share of the whole history.
                    let objective = loss * (1 / Double(count)) + Self.pull(parameters, defaults) * (priorReviews / Double(scored))
                    // Cosine-annealed step size, as the reference does.
                    let rate = learningRate * 0.5 * (1 + cos(Double.pi * Double(stepNumber) / Double(max(1, totalSteps))))
                    weights = adam.step(weights, gradient: objective.partials, rate: rate)
                    for index in weights.indices { weights[index] = min(max(weights[index], bounds[index].lowerBound), bounds[index].upperBound) }
                    stepNumber += 1
                }
            }
        }
        return FSRSFit(
            weights: weights, logLoss: logLoss(weights: weights, histories: cards), logLossBefore: logLoss(weights: defaults, histories: cards),
            reviews: scored)
    }

    /// The reviews of `histories` a fit scores: those made on a later day than the card's previous one.
    public static func scoredReviews(_ histories: [[FSRSReview]]) -> Int {
        histories.reduce(0) { $0 + Self.steps($1).filter(\.isScored).count }
    }

    /// The mean binary cross-entropy of `weights` on the scored reviews of `histories`.
    public static func logLoss(weights: [Double], histories: [[FSRSReview]]) -> Double {
        logLoss(weights: weights, histories: histories.map(Self.steps))
    }

    /// The gradient of `logLoss` by each weight at `weights` (what the fit descends, without
    /// the pull towards the defaults).
    public static func gradient(weights: [Double], histories: [[FSRSReview]]) -> [Double] {
        let parameters = weights.indices.map { Dual(weights[$0], seed: $0) }
        var total = Dual(0), count = 0
        for card in histories.map(Self.steps) {
            let (loss, scored) = Self.loss(card, parameters)
            total = total + loss
            count += scored
        }
        guard count > 0, !total.partials.isEmpty else { return Array(repeating: 0, count: weights.count) }
        return total.partials.map { $0 / Double(count) }
    }

    private static func logLoss(weights: [Double], histories: [[Step]]) -> Double {
        let parameters = weights.map { Dual($0) }
        var total = 0.0, count = 0
        for card in histories {
            let (loss, scored) = Self.loss(card, parameters)
            total += loss.value
            count += scored
        }
        return count == 0 ? 0 : total / Double(count)
    }

    // MARK: The memory model

    /// A review as the memory model sees it: whole days since the card's previous review (nil
    /// for the first) and the rating.
    struct Step {
        var days: Int?
        var rating: FSRSRating
        var isScored: Bool { (days ?? 0) >= 1 }
    }

    static func steps(_ reviews: [FSRSReview]) -> [Step] {
        var previous: Date?
        return reviews.map { review in
            defer { previous = review.at }
            return Step(days: previous.map { FSRSScheduler.wholeDays(from: $0, to: review.at) }, rating: review.rating)
        }
    }

    /// A card's summed loss over its scored reviews, and how many there were.
    static func loss(_ card: [Step], _ w: [Dual]) -> (Dual, Int) {
        var memory: (stability: Dual, difficulty: Dual)?
        var loss = Dual(0)
        var count = 0
        for step in card {
            let grade = Double(step.rating.rawValue)
            guard let (stability, difficulty) = memory, let days = step.days else {
                memory = (clampStability(w[step.rating.rawValue - 1]), clampDifficulty(initialDifficulty(grade, w)))
                continue
            }
            if days < 1 {
                memory = (shortTermStability(stability, grade, w), nextDifficulty(difficulty, grade, w))
                continue
            }
            let recall = retrievability(Double(days), stability, w)
            // Kept inside (0, 1) so that a certain wrong prediction costs a lot, not infinity.
            let p = recall.clamped(1e-6, 1 - 1e-6)
            loss = loss - (step.rating == .again ? (Dual(1) - p).log() : p.log())
            count += 1
            memory = (nextStability(difficulty, stability, recall, step.rating, w), nextDifficulty(difficulty, grade, w))
        }
        return (loss, count)
    }

    static func retrievability(_ days: Double, _ stability: Dual, _ w: [Dual]) -> Dual {
        let decay = Dual(0) - w[20]
        let factor = Dual(0.9).pow(Dual(1) / decay) - Dual(1)
        return (Dual(1) + factor * days / stability).pow(decay)
    }

    static func initialDifficulty(_ grade: Double, _ w: [Dual]) -> Dual {
        w[4] - (w[5] * (grade - 1)).exp() + Dual(1)
    }

    static func nextDifficulty(_ difficulty: Dual, _ grade: Double, _ w: [Dual]) -> Dual {
        let delta = Dual(0) - w[6] * (grade - 3)
        let damped = difficulty + (Dual(10) - difficulty) * delta * (1.0 / 9)
        return clampDifficulty(w[7] * initialDifficulty(4, w) + (Dual(1) - w[7]) * damped)
    }

    static func shortTermStability(_ stability: Dual, _ grade: Double, _ w: [Dual]) -> Dual {
        var increase = (w[17] * (w[18] + (grade - 3))).exp() * stability.pow(Dual(0) - w[19])
        if grade >= 2, increase.value < 1 { increase = Dual(1) }
        return clampStability(stability * increase)
    }

    static func nextStability(_ difficulty: Dual, _ stability: Dual, _ recall: Dual, _ rating: FSRSRating, _ w: [Dual]) -> Dual {
        if rating == .again {
            let longTerm = w[11] * difficulty.pow(Dual(0) - w[12]) * ((stability + Dual(1)).pow(w[13]) - Dual(1)) * ((Dual(1) - recall) * w[14]).exp()
            let shortTerm = stability / (w[17] * w[18]).exp()
            return clampStability(longTerm.value < shortTerm.value ? longTerm : shortTerm)
        }
        var growth = w[8].exp() * (Dual(11) - difficulty) * stability.pow(Dual(0) - w[9]) * (((Dual(1) - recall) * w[10]).exp() - Dual(1))
        if rating == .hard { growth = growth * w[15] }
        if rating == .easy { growth = growth * w[16] }
        return clampStability(stability * (Dual(1) + growth))
    }

    static func clampStability(_ value: Dual) -> Dual { value.value < FSRSScheduler.minimumStability ? Dual(FSRSScheduler.minimumStability) : value }
    static func clampDifficulty(_ value: Dual) -> Dual { value.clamped(1, 10) }

    /// The squared distance from the defaults, each weight in tenths of its bounds' width.
    static func pull(_ w: [Dual], _ defaults: [Double]) -> Dual {
        var total = Dual(0)
        for index in w.indices {
            let scale = (bounds[index].upperBound - bounds[index].lowerBound) / 10
            let distance = (w[index] - Dual(defaults[index])) * (1 / scale)
            total = total + distance * distance
        }
        return total
    }

    /// Cards in order, cut into batches of about `batchSize` reviews (a card is never split).
    static func batches(_ cards: [[Step]]) -> [[[Step]]] {
        var batches: [[[Step]]] = [], current: [[Step]] = [], size = 0
        for card in cards {
            current.append(card)
            size += card.count
            if size >= batchSize {
                batches.append(current)
                current = []
                size = 0
            }
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }
}

/// Adam's moment estimates across steps.
struct Adam {
    private var first: [Double], second: [Double], step = 0
    private let beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8

    init(count: Int) {
        first = Array(repeating: 0, count: count)
        second = Array(repeating: 0, count: count)
    }

    mutating func step(_ weights: [Double], gradient: [Double], rate: Double) -> [Double] {
        step += 1
        var next = weights
        for index in weights.indices {
            let g = index < gradient.count ? gradient[index] : 0
            first[index] = beta1 * first[index] + (1 - beta1) * g
            second[index] = beta2 * second[index] + (1 - beta2) * g * g
            let corrected1 = first[index] / (1 - pow(beta1, Double(step)))
            let corrected2 = second[index] / (1 - pow(beta2, Double(step)))
            next[index] -= rate * corrected1 / (corrected2.squareRoot() + epsilon)
        }
        return next
    }
}
