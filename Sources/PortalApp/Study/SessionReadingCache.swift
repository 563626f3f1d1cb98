import ExamData
import Foundation

/// Signed-in students' session readings (a question page's, a results page's), kept by reader,
/// session, page, the reader's data version and the catalogue's version: a page seen again —
/// a reload, the way back from the results, the same tab on a slow connection — reads nothing,
/// and any write for the student or any content edit simply stops its key being asked for.
/// Small and bounded: a student's next page is usually one they have not seen.
final class SessionReadingCache: @unchecked Sendable {  // `entries` only under `lock`
    private let lock = NSLock()
    private var entries: [String: SessionReading] = [:]
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The reading kept under `key`, if any.
    func reading(_ key: String) -> SessionReading? {
        lock.withLock { entries[key] }
    }

    /// Keeps `reading` under `key` (everything is dropped when full: keys go stale anyway).
    func keep(_ key: String, _ reading: SessionReading) {
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = reading
        }
    }
}
