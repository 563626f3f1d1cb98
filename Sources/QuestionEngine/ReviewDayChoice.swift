import Foundation

/// How much review a day of the week may take: a student's "easy days".
public enum StudyDayLoad: String, Sendable, CaseIterable, Codable {
    case normal, reduced, none

    /// The share of an ordinary day's reviews this day may take.
    public var capacity: Double {
        switch self {
        case .normal: 1
        case .reduced: 0.5
        case .none: 0
        }
    }

    /// The letter a week is stored with: `n`, `r` or `x`, Monday first (`users.easy_days`).
    public var letter: Character {
        switch self {
        case .normal: "n"
        case .reduced: "r"
        case .none: "x"
        }
    }

    /// The seven days of a stored week, Monday first; nil unless it is seven known letters
    /// with at least one day that is not "none".
    public static func week(_ letters: String) -> [StudyDayLoad]? {
        let days = letters.map { letter in allCases.first { $0.letter == letter } }
        guard days.count == 7, !days.contains(nil), days.contains(where: { $0 != StudyDayLoad.none }) else { return nil }
        return days.compactMap { $0 }
    }
}

/// Which day a card that FSRS sends `interval` days ahead is due on, the student's whole
/// calendar considered — Anki's load balancer with easy days, and holidays. Pure, and written
/// twice on purpose: `review_day_choice` in the database schedules every answer, this is what
/// simulations and the tests hold it to (the same inputs give the same day).
///
/// - Within FSRS's own fuzz range (`fuzzRange`), the open day with the least load is chosen:
///   reviews already due that day (plus this one) over the day's capacity (1, ½ on a reduced
///   day). Ties go to the day nearest the interval, then the earlier one. Without balancing the
///   range is the interval alone.
/// - A closed day (an easy day marked "none", a holiday: capacity 0) is never chosen while an
///   open one is in range. When none is, the card moves before the closed stretch or after it
///   by how well it would still be recalled: after, when its recall on the first open day after
///   is within `afterMargin` of the desired retention; before otherwise (never today).
public enum ReviewDayChoice {
    /// How far below the desired retention a card may fall by waiting for the end of a closed
    /// stretch instead of being reviewed before it.
    public static let afterMargin = 0.05
    /// How many open days next to a closed stretch share the cards it pushes out.
    public static let spread = 3

    /// FSRS's fuzz range for an interval of `interval` whole days (as the reference scheduler
    /// computes it): none under 2.5 days, then ±(1 + 15% of days 2.5–7 + 10% of 7–20 + 5%
    /// beyond), rounded, at least 2 and at most `maximum`.
    public static func fuzzRange(_ interval: Int, maximum: Int) -> ClosedRange<Int> {
        guard Double(interval) >= 2.5 else { return interval...interval }
        let days = Double(interval)
        let delta = 1.0 + 0.15 * max(min(days, 7) - 2.5, 0) + 0.1 * max(min(days, 20) - 7, 0) + 0.05 * max(days - 20, 0)
        let upper = min(Int((days + delta).rounded()), maximum)
        let lower = min(max(2, Int((days - delta).rounded())), upper)
        return lower...upper
    }

    /// The day (days after the answer's day, ≥ 1) a card FSRS sends `interval` days ahead is due.
    ///
    /// - Parameters:
    ///   - capacity: each day's capacity from the answer's day on (index 0 is that day); days
    ///     past the end are open (1).
    ///   - due: reviews already due each day from the answer's day on; days past the end have none.
    ///   - balance: spread over the fuzz range by load; without it only closed days move a card.
    ///   - recall: the card's probability of recall `days` after the answer.
    public static func day(
        interval: Int, maximum: Int, capacity: [Double], due: [Int], balance: Bool, retention: Double, recall: (Int) -> Double
    ) -> Int {
        let range = balance ? fuzzRange(interval, maximum: maximum) : interval...interval
        func open(_ day: Int) -> Bool { day >= capacity.count || capacity[day] > 0 }
        func load(_ day: Int) -> Double {
            let reviews = balance && day < due.count ? Double(due[day]) : 0
            return (reviews + 1) / (day < capacity.count ? capacity[day] : 1)
        }
        // The least loaded of `days` (all open), nearest the interval on a tie, then earliest.
        func best(_ days: [Int]) -> Int? {
            days.min { a, b in
                let (la, lb) = (load(a), load(b))
                if la != lb { return la < lb }
                let (da, db) = (abs(a - interval), abs(b - interval))
                return da != db ? da < db : a < b
            }
        }
        if let chosen = best(range.filter(open)) { return chosen }
        let before = Array((1..<max(1, range.lowerBound)).reversed().lazy.filter(open).prefix(spread))
        var after: [Int] = []
        var day = range.upperBound + 1
        while after.count < spread {
            if open(day) { after.append(day) }
            day += 1
        }
        guard let early = best(before) else { return best(after)! }
        return recall(after[0]) >= retention - afterMargin ? best(after)! : early
    }
}
