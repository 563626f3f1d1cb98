import Foundation

/// What a schedule asks of a student: their cards (and any new ones) reviewed day by day as the
/// scheduler and their calendar place them. Deterministic: the same cards, calendar and seed
/// give the same days, so an estimate shown in the morning is the estimate at night.
public struct WorkloadSimulator: Sendable {
    /// How a simulated review's outcome is decided.
    public enum Recall: Sendable, Equatable {
        /// The expected student: every review recalled, each lapse counted as the share of one
        /// more review that the chance of forgetting (1 − recall) is. Smooth, and monotone in
        /// the desired retention where FSRS's intervals are.
        case expected
        /// A sampled student: recalled when a draw from a generator seeded with `seed` falls
        /// below the card's recall, relearned the same day otherwise.
        case sampled(seed: UInt64)
    }

    /// What the simulated days came to.
    public struct Outcome: Sendable, Equatable {
        /// Reviews done each day, day 0 first (fractional for the expected student).
        public var reviewsPerDay: [Double]
        /// The cards' mean recall at each day's end (0 while there are none).
        public var recallPerDay: [Double]

        /// The average over the days of the cards' mean recall.
        public var meanRecall: Double { Self.mean(recallPerDay[...]) }
        /// The average of `reviewsPerDay`.
        public var meanReviews: Double { Self.mean(reviewsPerDay[...]) }

        /// The averages over the first `days` days.
        public func prefix(_ days: Int) -> (reviews: Double, recall: Double) {
            (Self.mean(reviewsPerDay.prefix(days)), Self.mean(recallPerDay.prefix(days)))
        }

        private static func mean(_ values: ArraySlice<Double>) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
    }

    public let scheduler: FSRSScheduler
    public let calendar: StudyCalendar
    public let recall: Recall

    public init(scheduler: FSRSScheduler, calendar: StudyCalendar = StudyCalendar(), recall: Recall = .expected) {
        self.scheduler = scheduler
        self.calendar = calendar
        self.recall = recall
    }

    /// `days` days from `start` (the beginning of day 0): each day the cards due by its end
    /// are reviewed, then `newCards[day]` new ones are learned; every card that comes out in
    /// review is placed on the calendar as `review_card_apply` places it.
    public func run(_ cards: [FSRSCard], newCards: [Int] = [], days: Int, start: Date) -> Outcome {
        var generator = SplitMix64(seed: { if case .sampled(let seed) = recall { seed } else { 0 } }())
        var cards = cards
        var dueOn: [Int: Int] = [:]
        func day(of date: Date) -> Int { Int((date.timeIntervalSince(start) / 86_400).rounded(.down)) }
        for card in cards { dueOn[day(of: card.due), default: 0] += 1 }
        var reviewsPerDay: [Double] = [], recallPerDay: [Double] = []

        // A card that has just been reviewed at `at`: through its learning steps (the same day),
        // then on the calendar.
        func settle(_ reviewed: FSRSCard, at today: Int) -> (FSRSCard, steps: Int) {
            var card = reviewed, steps = 0
            while card.state != .review, steps < 8 {
                card = scheduler.review(card, rating: .good, at: card.due)
                steps += 1
            }
            guard let lastReview = card.lastReview, card.stability != nil else { return (card, steps) }
            let interval = Int((card.due.timeIntervalSince(lastReview) / 86_400).rounded())
            guard interval >= 1, !(calendar.isPlain) else { return (card, steps) }
            let reach = ReviewDayChoice.fuzzRange(interval, maximum: scheduler.parameters.maximumIntervalDays).upperBound + 7
                + (calendar.holidays.map { $0 - today }.filter { $0 >= 0 }.max() ?? 0)
            let chosen = ReviewDayChoice.day(
                interval: interval, maximum: scheduler.parameters.maximumIntervalDays,
                capacity: (0...reach).map { calendar.capacity(today + $0) },
                due: (0...reach).map { dueOn[today + $0] ?? 0 }, balance: calendar.balance,
                retention: scheduler.parameters.desiredRetention
            ) { days in scheduler.retrievability(of: card, at: lastReview.addingTimeInterval(Double(days) * 86_400)) }
            card.due = lastReview.addingTimeInterval(Double(chosen) * 86_400)
            return (card, steps)
        }

        for today in 0..<max(0, days) {
            let dayEnd = start.addingTimeInterval(Double(today + 1) * 86_400)
            let at = start.addingTimeInterval(Double(today) * 86_400 + 12 * 3_600)
            var reviews = 0.0
            for index in cards.indices where cards[index].due < dayEnd {
                let card = cards[index]
                dueOn[day(of: card.due), default: 0] -= 1
                let chance = card.stability == nil ? 1 : scheduler.retrievability(of: card, at: at)
                let remembered: Bool
                switch recall {
                case .expected:
                    remembered = true
                    reviews += 1 + (1 - chance)
                case .sampled:
                    remembered = generator.nextUnit() < chance
                    reviews += 1
                }
                let (next, steps) = settle(scheduler.review(card, rating: remembered ? .good : .again, at: max(at, card.due)), at: today)
                if case .sampled = recall { reviews += Double(steps) }
                cards[index] = next
                dueOn[day(of: next.due), default: 0] += 1
            }
            for _ in 0..<(today < newCards.count ? newCards[today] : 0) {
                let (card, _) = settle(scheduler.review(FSRSCard(due: at), rating: .good, at: at), at: today)
                cards.append(card)
                dueOn[day(of: card.due), default: 0] += 1
            }
            reviewsPerDay.append(reviews)
            recallPerDay.append(cards.isEmpty ? 0
                : cards.reduce(0) { $0 + ($1.stability == nil ? 0 : scheduler.retrievability(of: $1, at: dayEnd)) } / Double(cards.count))
        }
        return Outcome(reviewsPerDay: reviewsPerDay, recallPerDay: recallPerDay)
    }
}

extension SplitMix64 {
    /// A draw in [0, 1).
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}
