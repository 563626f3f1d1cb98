import ExamData
import Foundation
import Identifiers

/// An assignment in a pupil's lists (their classes, their dashboard): what and for which class,
/// when it is due in their own zone, where they stand with it, and the way to open it.
struct PupilAssignmentRow: Encodable {
    /// Rows as the shared partial (`teach/_assignment_rows`) lists them.
    struct List: Encodable {
        var assignments: [PupilAssignmentRow]
    }

    var href: String
    var title: String
    var className: String
    var examTitle: String
    var examLanguage: String
    var due: String?
    var overdue: Bool
    /// "Done: 85%", "Started", "Not started yet".
    var standing: String
    var done: Bool
    /// "1 of 2 attempts used", when the attempts are limited.
    var attempts: String?
    /// The class named in the row (where the list is not already under its class).
    var showsClass = false

    init(_ assignment: PupilAssignment, now: Date, zone: TimeZone, pages: PageRenderer, locale: String) {
        href = "/me/assignments/" + assignment.id.lowercasedText
        title = assignment.title
        className = assignment.className
        examTitle = assignment.examTitle
        examLanguage = assignment.examLanguage
        due = assignment.dueAt.map { pages.message("school.due_value", locale: locale, ["when": LocalDates.dateTime($0, locale: locale, zone: zone)]) }
        done = assignment.finishedAt != nil
        overdue = !done && (assignment.dueAt.map { $0 < now } ?? false)
        standing = if let score = assignment.scorePercent, done {
            pages.message("school.assignment_done", locale: locale, ["percent": Percentages.format(score / 100, locale: locale)])
        } else if assignment.used > 0 {
            pages.message("school.assignment_started", locale: locale)
        } else {
            pages.message("school.assignment_not_started", locale: locale)
        }
        attempts = assignment.allowed.map { allowed in
            pages.message("school.attempts_used_short", locale: locale, ["used": String(assignment.used), "count": String(allowed)], count: Double(allowed))
        }
    }

    /// Whether a pupil should see it first: not done, and due within `days` (or overdue).
    static func isDueSoon(_ assignment: PupilAssignment, now: Date, days: Double = 3) -> Bool {
        guard assignment.finishedAt == nil, let due = assignment.dueAt else { return false }
        return due.timeIntervalSince(now) <= days * 86_400
    }
}
