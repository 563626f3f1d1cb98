import Foundation

/// Review that aims at the day a student sits an exam. Two rules, both pure:
///
/// - a card whose predicted retrievability on the exam day would be below the desired retention
///   is due the day before at the latest (`aim`), so reviewing as scheduled reviews it at least
///   once before the exam — FSRS counts whole days, so a review within the last day leaves it
///   at full recall on the day;
/// - in the final days (`finalDays`) review brings no new questions, and favours the domains
///   that are weakest for their blueprint weight (`priority`).
///
/// After the exam day the schedule is FSRS's own again.
public enum ExamDayPlan {
    /// Days before the exam in which no new questions are introduced.
    public static let finalDays = 3

    /// `card` due early enough for the exam that starts at `examDay` (the start of that day in
    /// the student's time zone); unchanged without an exam day, after it, or when the card is
    /// recalled well enough on the day anyway.
    public static func aim(_ card: FSRSCard, at examDay: Date?, scheduler: FSRSScheduler) -> FSRSCard {
        guard let examDay, let lastReview = card.lastReview, lastReview < examDay else { return card }
        let latest = examDay.addingTimeInterval(-86_400)
        guard card.due > latest, scheduler.retrievability(of: card, at: examDay) < scheduler.parameters.desiredRetention else { return card }
        var aimed = card
        aimed.due = max(lastReview, latest)
        return aimed
    }

    /// Whether `now` falls in the final days before the exam at `examDay`.
    public static func isFinalStretch(now: Date, examDay: Date?) -> Bool {
        guard let examDay else { return false }
        return now < examDay && examDay.timeIntervalSince(now) <= Double(finalDays) * 86_400
    }

    /// How much a domain needs review before the exam: its blueprint weight times the share of
    /// it the student is expected to miss. Higher first.
    public static func priority(_ domain: DomainRecall) -> Double {
        Double(max(0, domain.weight)) * (1 - domain.expectedScore())
    }
}
