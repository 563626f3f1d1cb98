import Foundation
import QuestionEngine
import Testing
import TestSupport

@Suite("Live events: the clock and the scoring", .onTestThreads)
struct LiveScoringTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("every question opens and closes on the server's schedule, with a pause between")
    func schedule() {
        let schedule = LiveSchedule(startsAt: start, questionCount: 3, secondsPerQuestion: 20, pauseSeconds: 5)
        #expect(schedule.phase(at: start.addingTimeInterval(-1)) == .waiting)
        #expect(schedule.phase(at: start) == .open(index: 0, opened: start, closes: start.addingTimeInterval(20)))
        #expect(schedule.phase(at: start.addingTimeInterval(19.999)) == .open(index: 0, opened: start, closes: start.addingTimeInterval(20)))
        #expect(schedule.phase(at: start.addingTimeInterval(20)) == .reveal(index: 0, next: start.addingTimeInterval(25)))
        #expect(schedule.phase(at: start.addingTimeInterval(25)) == .open(index: 1, opened: start.addingTimeInterval(25), closes: start.addingTimeInterval(45)))
        #expect(schedule.phase(at: start.addingTimeInterval(69.9)) == .open(index: 2, opened: start.addingTimeInterval(50), closes: start.addingTimeInterval(70)))
        #expect(schedule.phase(at: start.addingTimeInterval(70)) == .reveal(index: 2, next: start.addingTimeInterval(75)))
        #expect(schedule.phase(at: start.addingTimeInterval(75)) == .ended)
        #expect(schedule.nextChange(after: start.addingTimeInterval(21)) == start.addingTimeInterval(25))
        #expect(schedule.nextChange(after: start.addingTimeInterval(75)) == nil)
    }

    @Test("a right answer scores by speed: 1000 at once, 500 at the bell; a wrong one scores nothing")
    func points() {
        #expect(LiveScoring.points(correct: true, elapsedMilliseconds: 0, limitSeconds: 20) == 1000)
        #expect(LiveScoring.points(correct: true, elapsedMilliseconds: 10_000, limitSeconds: 20) == 750)
        #expect(LiveScoring.points(correct: true, elapsedMilliseconds: 20_000, limitSeconds: 20) == 500)
        #expect(LiveScoring.points(correct: true, elapsedMilliseconds: 99_000, limitSeconds: 20) == 500)
        #expect(LiveScoring.points(correct: false, elapsedMilliseconds: 0, limitSeconds: 20) == 0)
    }

    @Test("a run of right answers earns a capped bonus; a wrong or skipped question ends the run")
    func streaks() {
        let fast = { (index: Int, correct: Bool) in (index: index, correct: correct, elapsedMilliseconds: 0) }
        #expect(LiveScoring.total([fast(0, true), fast(1, true), fast(2, true)], limitSeconds: 10) == 3000 + 50 + 100)
        #expect(LiveScoring.total([fast(0, true), fast(1, false), fast(2, true)], limitSeconds: 10) == 2000)
        #expect(LiveScoring.total([fast(0, true), fast(2, true)], limitSeconds: 10) == 2000, "a skipped question ends the run")
        #expect(LiveScoring.total((0..<10).map { fast($0, true) }, limitSeconds: 10) == 10_000 + 50 + 100 + 150 + 200 + 250 * 5)
        #expect(LiveScoring.total([fast(2, true), fast(1, true), fast(0, true)], limitSeconds: 10) == 3150, "order of arrival does not matter")
    }
}
