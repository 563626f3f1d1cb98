import Foundation
import QuestionEngine
import Testing
import TestSupport

/// The day a review is due on: FSRS's interval placed on the student's calendar.
@Suite("Review days: load balancing, easy days, holidays", .onTestThreads)
struct ReviewDayChoiceTests {
    /// A Monday at midnight UTC.
    static let monday = Date(timeIntervalSince1970: 1_798_416_000)

    @Test("the fuzz range is the reference scheduler's")
    func fuzzRange() {
        // py-fsrs: no fuzz under 2.5 days; delta 1 + 15% of 2.5–7 + 10% of 7–20 + 5% beyond.
        #expect(ReviewDayChoice.fuzzRange(1, maximum: 36_500) == 1...1)
        #expect(ReviewDayChoice.fuzzRange(2, maximum: 36_500) == 2...2)
        #expect(ReviewDayChoice.fuzzRange(3, maximum: 36_500) == 2...4)
        #expect(ReviewDayChoice.fuzzRange(10, maximum: 36_500) == 8...12)
        #expect(ReviewDayChoice.fuzzRange(100, maximum: 36_500) == 93...107)
        #expect(ReviewDayChoice.fuzzRange(100, maximum: 101) == 93...101)
    }

    @Test("on any calendar the day stays in the fuzz range, on an open day, and without balancing it is FSRS's own")
    func staysInRange() {
        var random = SplitMix64(seed: 38)
        for _ in 0..<2_000 {
            let interval = Int.random(in: 1...400, using: &random)
            let range = ReviewDayChoice.fuzzRange(interval, maximum: 36_500)
            let capacity = (0...range.upperBound + 10).map { _ in [1, 1, 1, 0.5, 0][Int.random(in: 0...4, using: &random)] }
            let due = (0...range.upperBound + 10).map { _ in Int.random(in: 0...40, using: &random) }
            for balance in [true, false] {
                let day = ReviewDayChoice.day(
                    interval: interval, maximum: 36_500, capacity: capacity, due: due, balance: balance, retention: 0.9) { _ in 0.9 }
                let open = day >= capacity.count || capacity[day] > 0
                #expect(day >= 1 && open, "never today, never a closed day")
                let searched = balance ? range : interval...interval
                let anyOpen = searched.contains { capacity[$0] > 0 }
                if anyOpen {
                    #expect(searched.contains(day), "interval \(interval): day \(day) outside \(searched)")
                }
            }
            let everyDay = Array(repeating: 1.0, count: capacity.count)
            let own = ReviewDayChoice.day(interval: interval, maximum: 36_500, capacity: everyDay, due: due, balance: false, retention: 0.9) { _ in 1 }
            #expect(own == interval)
        }
    }

    @Test("the least loaded day of the range wins; a reduced day counts its reviews double")
    func leastLoaded() {
        let range = ReviewDayChoice.fuzzRange(10, maximum: 36_500)  // 8…12
        var due = Array(repeating: 30, count: 20)
        due[11] = 12
        #expect(ReviewDayChoice.day(interval: 10, maximum: 36_500, capacity: [], due: due, balance: true, retention: 0.9) { _ in 1 } == 11)
        var capacity = Array(repeating: 1.0, count: 20)
        capacity[11] = 0.5  // 13 / 0.5 = 26 against 31 elsewhere: still the lightest
        #expect(ReviewDayChoice.day(interval: 10, maximum: 36_500, capacity: capacity, due: due, balance: true, retention: 0.9) { _ in 1 } == 11)
        due[11] = 20  // 42 against 31: no longer
        #expect(ReviewDayChoice.day(interval: 10, maximum: 36_500, capacity: capacity, due: due, balance: true, retention: 0.9) { _ in 1 } == 10)
        #expect(range.contains(10))
    }

    /// A student who learns 300 new questions on day 0 and reviews every day what is due.
    func week(balance: Bool, seed: UInt64) -> [Double] {
        let simulator = WorkloadSimulator(
            scheduler: FSRSScheduler(), calendar: StudyCalendar(balance: balance), recall: .sampled(seed: seed))
        return simulator.run([], newCards: [300], days: 30, start: Self.monday).reviewsPerDay
    }

    @Test("300 new questions on one day: their next reviews spread over the fuzz range within 1.3× its mean, where FSRS alone piles them on one day")
    func threeHundredNewCards() {
        for seed in UInt64(1)...6 {
            let plain = week(balance: false, seed: seed), balanced = week(balance: true, seed: seed)
            // The 300 are learned on day 0 and first reviewed on day 2; FSRS alone sends nearly
            // all of them on to one later day, the balancer over that interval's fuzz range.
            let peak = (4..<plain.count).max { plain[$0] < plain[$1] }!
            let range = ReviewDayChoice.fuzzRange(peak - 2, maximum: 36_500)
            let window = (range.lowerBound + 2)...(range.upperBound + 2)
            func ratio(_ days: [Double]) -> Double {
                let slice = window.map { days[$0] }
                return slice.max()! / (slice.reduce(0, +) / Double(slice.count))
            }
            #expect(ratio(balanced) <= 1.3, "seed \(seed): balanced \(window.map { balanced[$0] })")
            #expect(ratio(plain) > 1.3, "seed \(seed): plain \(window.map { plain[$0] })")
            let moved: Double = window.map { balanced[$0] }.reduce(0, +)
            #expect(moved >= 250, "the wave is spread, not lost: \(moved)")
        }
    }

    @Test("Sundays marked none stay empty, and reduced Saturdays take fewer reviews")
    func easyDays() {
        var week = Array(repeating: StudyDayLoad.normal, count: 7)
        week[5] = .reduced
        week[6] = .none
        let simulator = WorkloadSimulator(
            scheduler: FSRSScheduler(), calendar: StudyCalendar(balance: true, week: week), recall: .sampled(seed: 3))
        // Forty new questions a weekday for three weeks.
        let plan = (0..<21).map { $0 % 7 < 5 ? 40 : 0 }
        let days = simulator.run([], newCards: plan, days: 60, start: Self.monday).reviewsPerDay
        let sundays = stride(from: 6, to: 60, by: 7).map { days[$0] }
        #expect(sundays.allSatisfy { $0 == 0 }, "Sundays: \(sundays)")
        let saturdays = stride(from: 26, to: 60, by: 7).map { days[$0] }
        let weekdays = (21..<60).filter { $0 % 7 < 5 }.map { days[$0] }
        let saturday: Double = saturdays.reduce(0, +) / Double(saturdays.count)
        let weekday: Double = weekdays.reduce(0, +) / Double(weekdays.count)
        #expect(saturday < weekday, "a Saturday \(saturday), a weekday \(weekday)")
    }

    @Test("a two-week holiday is empty; what would fall in it comes before or after by recall")
    func holiday() {
        let holiday = Set(20..<34)
        let simulator = WorkloadSimulator(
            scheduler: FSRSScheduler(), calendar: StudyCalendar(balance: true, holidays: holiday), recall: .sampled(seed: 5))
        let plan = (0..<14).map { _ in 20 }
        let days = simulator.run([], newCards: plan, days: 60, start: Self.monday).reviewsPerDay
        #expect(holiday.allSatisfy { days[$0] == 0 }, "holiday days: \(holiday.sorted().map { days[$0] })")
        let plain = WorkloadSimulator(scheduler: FSRSScheduler(), calendar: StudyCalendar(balance: true), recall: .sampled(seed: 5))
            .run([], newCards: plan, days: 60, start: Self.monday).reviewsPerDay
        let before: Double = days[14..<20].reduce(0, +), plainBefore: Double = plain[14..<20].reduce(0, +)
        let after: Double = days[34..<41].reduce(0, +), plainAfter: Double = plain[34..<41].reduce(0, +)
        #expect(before > plainBefore, "the days before take some")
        #expect(after > plainAfter, "the week after takes the rest")
    }

    @Test("the expected workload grows with the retention asked for, and so does what is remembered")
    func monotoneInRetention() {
        let scheduler = FSRSScheduler()
        var deck: [FSRSCard] = []
        var random = SplitMix64(seed: 11)
        for index in 0..<200 {
            let learned = Self.monday.addingTimeInterval(-Double(index % 40) * 86_400)
            var card = scheduler.review(FSRSCard(due: learned), rating: [.again, .hard, .good, .easy][Int(random.next() % 4)], at: learned)
            card = scheduler.review(card, rating: .good, at: card.due)
            deck.append(card)
        }
        let outcomes = [0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 0.97].map { retention in
            WorkloadSimulator(scheduler: FSRSScheduler(parameters: FSRSParameters(desiredRetention: retention)))
                .run(deck, days: 90, start: Self.monday)
        }
        for (lower, higher) in zip(outcomes, outcomes.dropFirst()) {
            #expect(lower.meanRecall < higher.meanRecall)
        }
        #expect(outcomes.first!.meanReviews < outcomes.last!.meanReviews)
    }
}
