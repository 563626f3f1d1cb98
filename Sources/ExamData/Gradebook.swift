import Foundation
import PostgresClient

/// A class's gradebook for its teacher: every current member against every assignment the
/// teacher set the class, each cell their first finished attempt (its score, whether it came
/// after the due time) and the attempts they started. Read in one flight from the class page's
/// own statements; a class the caller does not teach reads as nothing.
public struct Gradebook: Sendable {
    /// One pupil's standing on one assignment.
    public struct Cell: Sendable, Equatable {
        public var attempt: AssignmentAttempt
        /// Finished after the assignment's due time.
        public var late: Bool
    }

    public var summary: ClassSummary
    /// The assignments, oldest first (the order they were set, as a gradebook's columns go).
    public var links: [ShareLinkSummary]
    /// The members, in name order.
    public var pupils: [ClassRosterEntry]
    /// By link, then by pupil.
    public var cells: [UUID: [UUID: Cell]]

    public static func statements(classID: UUID, collation: Collation) -> [SQL] {
        [ClassReading.summaryStatement(classID), SchoolStore.shareLinksStatement(classID: classID),
         ClassReading.attemptsStatement(classID, collation), ClassReading.rosterStatement(classID, collation)]
    }

    /// The gradebook from what `statements` returned; nil when the caller does not teach the class.
    public init?(_ results: [QueryResult]) throws {
        guard results.count == 4, let row = results[0].first else { return nil }
        summary = try SchoolStore.summary(row)
        links = try results[1].rows.map(SchoolStore.shareLink).reversed()
        pupils = try ClassReading.roster(results[3])
        let attempts = try ClassReading.attempts(results[2])
        var cells: [UUID: [UUID: Cell]] = [:]
        for link in links {
            for attempt in attempts[link.id] ?? [] {
                let late = attempt.finishedAt.flatMap { finished in link.dueAt.map { finished > $0 } } ?? false
                cells[link.id, default: [:]][attempt.userID] = Cell(attempt: attempt, late: late)
            }
        }
        self.cells = cells
    }
}
