import Foundation
import QuestionEngine
import Testing
import TestSupport

/// Review that aims at the day a student sits their exam.
@Suite("Exam-day planning", .onTestThreads)
struct ExamDayPlanTests {
    /// A simulated student: new cards on the first days (none in the final days), then every day
    /// at 08:00 every card due by the end of that day is reviewed — remembered, rated Hard, Good
    /// or Easy by a fixed pattern — and nothing is reviewed on the exam day itself. Returns each
    /// card's retrievability at the end of the exam day.
    func simulate(planned: Bool, desiredRetention: Double, examAfterDays: Int, cards: Int = 60) -> [Double] {
        let scheduler = FSRSScheduler(parameters: FSRSParameters(desiredRetention: desiredRetention))
        let start = Date(timeIntervalSince1970: 1_790_000_000).addingTimeInterval(0)  // a midnight, UTC
        let midnight = start.addingTimeInterval(-start.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400))
        let examDay = midnight.addingTimeInterval(Double(examAfterDays) * 86_400)
        var deck: [FSRSCard] = []
        var pattern = SplitMix64(seed: 7)
        for day in 0..<examAfterDays {
            let morning = midnight.addingTimeInterval(Double(day) * 86_400 + 8 * 3_600)
            let dayEnd = midnight.addingTimeInterval(Double(day + 1) * 86_400)
            // Two new cards a day until the final days.
            if day < examAfterDays - ExamDayPlan.finalDays, deck.count < cards {
                deck += [FSRSCard(due: morning), FSRSCard(due: morning)]
            }
            for index in deck.indices where deck[index].due < dayEnd {
                // Learning steps are minutes apart: each card is reviewed until it is not due today.
                var passes = 0
                while deck[index].due < dayEnd, passes < 10 {
                    let rating: FSRSRating = [.hard, .good, .good, .good, .easy][Int(pattern.next() % 5)]
                    let at = max(morning, deck[index].due).addingTimeInterval(Double(passes))
                    deck[index] = scheduler.review(deck[index], rating: rating, at: at)
                    if planned { deck[index] = ExamDayPlan.aim(deck[index], at: examDay, scheduler: scheduler) }
                    passes += 1
                }
            }
        }
        let examDayEnd = examDay.addingTimeInterval(86_400)
        return deck.map { scheduler.retrievability(of: $0, at: examDayEnd) }
    }

    @Test("reviewing as scheduled, every card is at or above the desired retention on the exam day; without the plan some are not")
    func everyCardFreshOnTheDay() {
        for retention in [0.85, 0.9, 0.95] {
            for days in [10, 17, 30, 45] {
                let planned = simulate(planned: true, desiredRetention: retention, examAfterDays: days)
                #expect(!planned.isEmpty)
                #expect(planned.allSatisfy { $0 >= retention }, "retention \(retention), exam in \(days) days: lowest \(planned.min() ?? 0)")
            }
        }
        // The plan is what makes the difference: FSRS alone leaves cards due on the exam day.
        let unplanned = (10...45).flatMap { simulate(planned: false, desiredRetention: 0.9, examAfterDays: $0) }
        #expect(unplanned.contains { $0 < 0.9 })
    }

    @Test("a card is moved only when it would fall short, only to the day before, and never after the exam")
    func aimRules() {
        let scheduler = FSRSScheduler()
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        var card = scheduler.review(FSRSCard(due: now), rating: .good, at: now)
        card = scheduler.review(card, rating: .good, at: card.due)
        card = scheduler.review(card, rating: .good, at: card.due)
        let interval = card.due.timeIntervalSince(card.lastReview!)
        // The exam falls on the day the card is due: moved to the day before.
        let examDay = card.due.addingTimeInterval(-3_600)
        let aimed = ExamDayPlan.aim(card, at: examDay, scheduler: scheduler)
        #expect(aimed.due == examDay.addingTimeInterval(-86_400))
        #expect(aimed.stability == card.stability && aimed.difficulty == card.difficulty)
        // Long after the card is due anyway, or before its last review, or without a date: unchanged.
        #expect(ExamDayPlan.aim(card, at: card.due.addingTimeInterval(interval * 3), scheduler: scheduler) == card)
        #expect(ExamDayPlan.aim(card, at: card.lastReview!.addingTimeInterval(-86_400), scheduler: scheduler) == card)
        #expect(ExamDayPlan.aim(card, at: nil, scheduler: scheduler) == card)
        // The final stretch: the last three days, not the exam day itself or after.
        #expect(ExamDayPlan.isFinalStretch(now: examDay.addingTimeInterval(-2 * 86_400), examDay: examDay))
        #expect(!ExamDayPlan.isFinalStretch(now: examDay.addingTimeInterval(-5 * 86_400), examDay: examDay))
        #expect(!ExamDayPlan.isFinalStretch(now: examDay.addingTimeInterval(3_600), examDay: examDay))
    }

    @Test("final-days review: due cards first, by the domain's need, the least recalled first; nothing new")
    func finalStretchOrder() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        func card(_ n: Int, _ domain: String, dueIn hours: Double, recall: Double) -> StudiedCard {
            StudiedCard(id: UUID(uuidString: "00000000-0000-4000-8000-\(String(format: "%012d", n))")!, domain: domain,
                        due: now.addingTimeInterval(hours * 3_600), recall: recall)
        }
        let cards = [
            card(1, "strong", dueIn: -1, recall: 0.8), card(2, "weak", dueIn: -2, recall: 0.9), card(3, "weak", dueIn: -3, recall: 0.7),
            card(4, "weak", dueIn: 48, recall: 0.95), card(5, "strong", dueIn: 48, recall: 0.5), card(6, "weak", dueIn: 72, recall: 0.85),
        ]
        let weak = DomainRecall(weight: 60, questions: 10, seen: 10, recallSum: 5)
        let strong = DomainRecall(weight: 40, questions: 10, seen: 10, recallSum: 9)
        #expect(ExamDayPlan.priority(weak) > ExamDayPlan.priority(strong))
        let chosen = QuestionSelector.finalStretch(
            cards, dueBy: now, priority: ["weak": ExamDayPlan.priority(weak), "strong": ExamDayPlan.priority(strong)], count: 5)
        #expect(chosen == [3, 2, 1, 6, 4].map { cards[$0 - 1].id })
    }
}
