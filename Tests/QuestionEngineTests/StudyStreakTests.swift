import QuestionEngine
import Testing
import TestSupport

/// A streak that forgives holidays, days off and one missed day a week once earned.
@Suite("Streaks that forgive", .onTestThreads)
struct StudyStreakTests {
    /// Day 0 is a Monday; weeks are Monday to Sunday.
    static func streak(studied: [Int], today: Int, excused: Set<Int> = []) -> StudyStreak {
        StudyStreak.on(today, studied: Set(studied), excused: { excused.contains($0) }, week: { Int((Double($0) / 7).rounded(.down)) })
    }

    @Test("days studied in a row count; today not studied yet ends nothing")
    func plain() {
        #expect(Self.streak(studied: Array(0..<5), today: 4).days == 5)
        #expect(Self.streak(studied: Array(0..<5), today: 5).days == 5)
        #expect(Self.streak(studied: [], today: 3) == StudyStreak(days: 0, freezes: 0, frozenDays: 0))
    }

    @Test("a missed day ends a streak that has earned no freeze")
    func breaks() {
        #expect(Self.streak(studied: [0, 1, 2, 4, 5], today: 5).days == 2)
    }

    @Test("a holiday or a day off neither counts nor breaks")
    func excused() {
        let streak = Self.streak(studied: [0, 1, 2, 3, 4, 12, 13], today: 13, excused: Set(5...11))
        #expect(streak.days == 7)
        #expect(streak.frozenDays == 0)
    }

    @Test("seven days studied earn a freeze, which covers one missed day a week, not two")
    func freezes() {
        let covered = Self.streak(studied: Array(0..<7) + [8, 9], today: 9)
        #expect(covered.days == 9 && covered.frozenDays == 1 && covered.freezes == 0)
        // Fourteen days earn two; two misses in one week still end it.
        let twoInAWeek = Self.streak(studied: Array(0..<14) + [15, 17], today: 17)
        #expect(twoInAWeek.days == 1)
        // The same two misses in two weeks are covered.
        let twoWeeks = Self.streak(studied: Array(0..<14) + [15, 16, 17, 18, 19, 20, 22], today: 22)
        #expect(twoWeeks.days == 21 && twoWeeks.frozenDays == 2)
        #expect(Self.streak(studied: Array(0..<40), today: 39).freezes == StudyStreak.mostFreezes)
    }
}
