import Foundation
import QuestionEngine
import Testing
import TestSupport

/// The optimizer against students whose memory follows known weights: reviews scheduled by the
/// default weights, each recalled with the probability the student's own weights give.
@Suite("FSRS-6 weights fitted to a student", .onTestThreads)
struct FSRSOptimizerTests {
    /// SplitMix64: the same seed, the same students.
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    /// A student who remembers better at first, forgets faster after a lapse and whose memory
    /// decays along a flatter curve than the defaults say.
    static let trueWeights: [Double] = {
        var weights = FSRSParameters.defaultWeights
        weights[0] = 0.6; weights[1] = 2.4; weights[2] = 4.5; weights[3] = 12
        weights[8] = 1.4; weights[11] = 0.9; weights[14] = 2.2; weights[20] = 0.35
        return weights
    }()

    /// `cards` cards studied over `days` days: the first review at a random day of the first
    /// half, then each when the default schedule says, until the period ends.
    static func students(seed: UInt64, cards: Int, days: Int = 180, weights: [Double] = trueWeights) -> [[FSRSReview]] {
        var random = Random(state: seed)
        let start = Date(timeIntervalSince1970: 1_780_000_000), end = start.addingTimeInterval(Double(days) * 86_400)
        let schedule = FSRSScheduler(), memory = FSRSScheduler(parameters: FSRSParameters(weights: weights))
        return (0..<cards).map { _ in
            var at = start.addingTimeInterval((random.next() * Double(days / 2)).rounded(.down) * 86_400 + 9 * 3_600)
            var scheduled = FSRSCard(due: at), remembered = FSRSCard(due: at)
            var reviews: [FSRSReview] = []
            while at < end, reviews.count < 30 {
                let recall = reviews.isEmpty ? 0.6 : memory.retrievability(of: remembered, at: at)
                let roll = random.next()
                let rating: FSRSRating = random.next() >= recall ? .again : roll < 0.1 ? .hard : roll > 0.9 ? .easy : .good
                reviews.append(FSRSReview(rating: rating, at: at))
                scheduled = schedule.review(scheduled, rating: rating, at: at)
                remembered = memory.review(remembered, rating: rating, at: at)
                at = scheduled.due
            }
            return reviews
        }
    }

    @Test("the optimizer's model predicts exactly what the scheduler does: the same retrievability before every review")
    func sameModelAsTheScheduler() {
        let histories = Self.students(seed: 7, cards: 60)
        let scheduler = FSRSScheduler()
        var total = 0.0, count = 0
        for history in histories {
            var card = FSRSCard(due: history[0].at)
            for (index, review) in history.enumerated() {
                // Scored: a review at least a whole day after the one before.
                if index > 0, review.at.timeIntervalSince(history[index - 1].at) >= 86_400 {
                    let p = min(max(scheduler.retrievability(of: card, at: review.at), 1e-6), 1 - 1e-6)
                    total -= review.rating == .again ? log(1 - p) : log(p)
                    count += 1
                }
                card = scheduler.review(card, rating: review.rating, at: review.at)
            }
        }
        #expect(count > 100)
        #expect(abs(FSRSOptimizer.logLoss(weights: FSRSParameters.defaultWeights, histories: histories) - total / Double(count)) < 1e-9)
    }

    @Test("the gradient is the loss's slope: each weight nudged either way agrees to 1e-4")
    func exactGradient() {
        let histories = Self.students(seed: 11, cards: 40)
        let weights = Self.trueWeights
        let gradient = FSRSOptimizer.gradient(weights: weights, histories: histories)
        for index in weights.indices {
            let step = 1e-6 * max(1, abs(weights[index]))
            var up = weights, down = weights
            up[index] += step
            down[index] -= step
            let slope = (FSRSOptimizer.logLoss(weights: up, histories: histories) - FSRSOptimizer.logLoss(weights: down, histories: histories)) / (2 * step)
            #expect(abs(slope - gradient[index]) < 1e-4 * max(1, abs(slope)), "weight \(index): \(gradient[index]) against \(slope)")
        }
    }

    @Test("fitted to 3,000 reviews, the weights predict other reviews of the same student better than the defaults, nearly as well as the truth, within bounds, the same every time")
    func fitsAStudent() {
        let training = Self.students(seed: 1, cards: 400), heldOut = Self.students(seed: 2, cards: 400)
        let fit = FSRSOptimizer.fit(training)
        #expect(fit.reviews > 2_000)
        #expect(fit.logLoss < fit.logLossBefore)
        let fitted = FSRSOptimizer.logLoss(weights: fit.weights, histories: heldOut)
        let defaults = FSRSOptimizer.logLoss(weights: FSRSParameters.defaultWeights, histories: heldOut)
        let truth = FSRSOptimizer.logLoss(weights: Self.trueWeights, histories: heldOut)
        // Most of what the student's true weights gain over the defaults, and nearly all.
        #expect(defaults - fitted > 0.6 * (defaults - truth), "held out: fitted \(fitted), defaults \(defaults), true \(truth)")
        #expect(fitted < truth + 0.003, "held out: fitted \(fitted), true \(truth)")
        for (index, weight) in fit.weights.enumerated() { #expect(FSRSOptimizer.bounds[index].contains(weight), "weight \(index) = \(weight)") }
        #expect(FSRSOptimizer.fit(training) == fit)
    }

    @Test("a short history moves the weights little from the defaults; none leaves them where nothing is known")
    func fewReviewsStayNearTheDefaults() {
        let fit = FSRSOptimizer.fit(Self.students(seed: 3, cards: 25, days: 40))
        #expect(fit.reviews < 200)
        for (index, weight) in fit.weights.enumerated() {
            let width = FSRSOptimizer.bounds[index].upperBound - FSRSOptimizer.bounds[index].lowerBound
            #expect(abs(weight - FSRSParameters.defaultWeights[index]) <= 0.05 * width, "weight \(index) moved from \(FSRSParameters.defaultWeights[index]) to \(weight)")
        }
        let none = FSRSOptimizer.fit([[FSRSReview(rating: .good, at: Date())]])
        #expect(none.weights == FSRSParameters.defaultWeights && none.reviews == 0)
    }
}
