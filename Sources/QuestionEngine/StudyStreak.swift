import Foundation

/// A streak that forgives: consecutive days of study, where a holiday or a day the student
/// keeps free of reviews neither counts nor breaks it, and one missed day a week can be covered
/// by a freeze earned by studying (one for every `daysPerFreeze` days studied, at most
/// `mostFreezes` held). Today never breaks it: the day is not over.
public struct StudyStreak: Sendable, Equatable {
    /// Days studied in a row, as forgiven.
    public var days: Int
    /// Freezes held now.
    public var freezes: Int
    /// Days of the current streak a freeze covered.
    public var frozenDays: Int

    public static let daysPerFreeze = 7
    public static let mostFreezes = 2

    public init(days: Int, freezes: Int, frozenDays: Int) {
        self.days = days
        self.freezes = freezes
        self.frozenDays = frozenDays
    }

    /// The streak on the day `today` (days are numbered, `today` the largest that matters):
    /// `studied` holds the days with an answer; `excused(day)` says a day was a holiday or a
    /// day off; `week(day)` names the calendar week a day belongs to (one freeze a week).
    public static func on(_ today: Int, studied: Set<Int>, excused: (Int) -> Bool, week: (Int) -> Int) -> StudyStreak {
        guard let first = studied.min(), first <= today else { return StudyStreak(days: 0, freezes: 0, frozenDays: 0) }
        var streak = StudyStreak(days: 0, freezes: 0, frozenDays: 0)
        var toward = 0
        var frozenWeek: Int?
        for day in first...today {
            if studied.contains(day) {
                streak.days += 1
                toward += 1
                if toward == daysPerFreeze {
                    streak.freezes = min(mostFreezes, streak.freezes + 1)
                    toward = 0
                }
            } else if excused(day) || day == today {
                continue
            } else if streak.freezes > 0, frozenWeek != week(day) {
                streak.freezes -= 1
                streak.frozenDays += 1
                frozenWeek = week(day)
            } else {
                streak.days = 0
                streak.frozenDays = 0
                toward = 0
            }
        }
        return streak
    }
}
