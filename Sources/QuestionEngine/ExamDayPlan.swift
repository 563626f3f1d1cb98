import Foundation

/// Review that aims at the day a student sits an exam. Two rules, both pure:
///
/// - a card whose predicted retrievability at the end of the exam day would be below the desired
///   retention is due the day before at the latest (`aim`), so reviewing as scheduled reviews it
///   at least once before the exam. FSRS rounds intervals to whole days, so without this a card
///   due on the exam day itself can be a little below the desired retention by the exam, and a
///   student does not review on that day;
/// - in the final days (`finalDays`) review brings no new questions, and favours the domains
///   that are weakest for their blueprint weight (`priority`).
///
/// After the exam day the schedule is FSRS's own again.
public enum ExamDayPlan {
    /// Days before the exam in which no new questions are introduced.
    public static let finalDays = 3

    /// `card` due early enough for the exam on the day that starts at `examDay` (midnight in
    /// the student's time zone); unchanged without an exam day, after it, or when the card is
    /// recalled well enough all that day anyway.
    public static func aim(_ card: FSRSCard, at examDay: Date?, scheduler: FSRSScheduler) -> FSRSCard {
        guard let examDay, let lastReview = card.lastReview, lastReview < examDay else { return card }
        let latest = examDay.addingTimeInterval(-86_400), dayEnd = examDay.addingTimeInterval(86_400)
        // Reviewed within the last day before the exam already: another review that day would
        // not move whole-day recall, so the card keeps FSRS's own due.
        guard lastReview < latest, card.due > latest,
              scheduler.retrievability(of: card, at: dayEnd) < scheduler.parameters.desiredRetention else { return card }
        var aimed = card
        aimed.due = latest
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
