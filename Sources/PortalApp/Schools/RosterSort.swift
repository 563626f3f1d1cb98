import ExamData
import Foundation

/// The order of a class page's roster, chosen by a column's link (`?sort=`): by name (the
/// default, in the reader's collation as read), by who was active last, by assignments done or
/// by accuracy — the latter three with the most first and names breaking ties.
enum RosterSort: String, CaseIterable, Sendable {
    case name, active, done, accuracy

    /// The order a query asks for; anything else is the default.
    init(query: String?) {
        self = query.flatMap(RosterSort.init(rawValue:)) ?? .name
    }

    /// `entries` (in name order) in this order; a stable sort keeps names in order among equals.
    func ordered(_ entries: [ClassRosterEntry]) -> [ClassRosterEntry] {
        let indexed = Array(entries.enumerated())
        func by<Key: Comparable>(_ key: (ClassRosterEntry) -> Key) -> [ClassRosterEntry] {
            indexed.sorted { left, right in
                let (a, b) = (key(left.element), key(right.element))
                return a != b ? a > b : left.offset < right.offset
            }.map(\.element)
        }
        switch self {
        case .name: return entries
        case .active: return by { $0.lastActive ?? .distantPast }
        case .done: return by(\.assignmentsDone)
        // Accuracy of nothing answered sorts below any accuracy at all.
        case .accuracy: return by { $0.answered == 0 ? -1 : Double($0.correct) / Double($0.answered) }
        }
    }
}
