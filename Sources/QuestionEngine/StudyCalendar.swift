import Foundation

/// A student's calendar as the scheduler sees it from one day on: whether reviews are spread
/// over FSRS's fuzz range, how much each weekday may take, and the days of their holidays.
/// Days are counted from the calendar's first day (day 0).
public struct StudyCalendar: Sendable, Equatable {
    /// Spread reviews by load over the fuzz range (`ReviewDayChoice`).
    public var balance: Bool
    /// Monday first.
    public var week: [StudyDayLoad]
    /// The weekday of day 0: 0 Monday … 6 Sunday.
    public var firstWeekday: Int
    /// Days (from day 0) on which nothing may be due.
    public var holidays: Set<Int>

    public init(balance: Bool = true, week: [StudyDayLoad] = Array(repeating: .normal, count: 7), firstWeekday: Int = 0, holidays: Set<Int> = []) {
        precondition(week.count == 7, "a week has seven days")
        self.balance = balance
        self.week = week
        self.firstWeekday = firstWeekday
        self.holidays = holidays
    }

    /// Whether this calendar changes anything FSRS would schedule on its own.
    public var isPlain: Bool { !balance && !week.contains { $0 != .normal } && holidays.isEmpty }

    /// The share of an ordinary day's reviews `day` may take: 0 on a holiday or a day off.
    public func capacity(_ day: Int) -> Double {
        holidays.contains(day) ? 0 : week[((firstWeekday + day) % 7 + 7) % 7].capacity
    }

    /// Each day's capacity from day 0 through `last`.
    public func capacities(through last: Int) -> [Double] { (0...max(0, last)).map(capacity) }
}
