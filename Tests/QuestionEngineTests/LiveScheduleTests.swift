import Foundation
import QuestionEngine
import Testing
import TestSupport

@Suite("Live events: the clock", .onTestThreads)
struct LiveScheduleTests {
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
}
