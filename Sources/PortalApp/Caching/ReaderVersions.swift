import ExamData
import Foundation
import Synchronization

/// Signed-in readers' data versions (`users.data_version`), remembered between requests so a
/// student's own pages — the dashboard, a session's question and results pages, their
/// leaderboard page — can be known current without reading the version for every request.
///
/// A remembered version is forgotten when the database announces another (`portal_readers`,
/// `<user id>:<version>`, migration 0020), when another instance announces a write for the
/// reader (`readers:<id>,…`, ReaderAnnouncer) and, before this instance answers, by every write
/// this instance makes for the reader (`forget`), so a student never sees their own page from
/// before their answer.
final class ReaderVersions: Sendable {
    private let remembered: RememberedValues<UUID, Int64>
    /// The version each reader's latest notice announced: a version read while something was
    /// forgotten is kept only if it is that one.
    private let announced = Mutex<[UUID: Int64]>([:])
    private static let capacity = 50_000

    init(recheck: TimeInterval = 10, clock: @escaping @Sendable () -> Date) {
        remembered = RememberedValues(recheck: recheck, capacity: Self.capacity, clock: clock)
    }

    /// Forgets a reader on each notice of another version, and everyone when listening starts
    /// or stops.
    /// `instance` names this instance in announcements (its own are not news to it).
    func follow(_ events: DatabaseEvents, instance: String) {
        events.onReset { [self] listening in
            announced.withLock { $0.removeAll() }
            remembered.reset(listening: listening)
        }
        events.subscribe { [self] notice in
            // `class:<id>` notices are the class pages' (ClassVersions).
            guard notice.channel == "portal_readers", !notice.payload.hasPrefix("class:") else { return }
            // Readers another instance wrote for (ReaderAnnouncer): their versions are read again.
            if let readers = ReaderNotice.readers(in: notice.payload, otherThan: instance) {
                readers.forEach(forget)
                return
            }
            let parts = notice.payload.split(separator: ":")
            guard parts.count == 2, let id = UUID(uuidString: String(parts[0])), let version = Int64(parts[1]) else {
                remembered.forget { _, _ in true }
                return
            }
            announced.withLock { known in
                if known.count >= Self.capacity { known.removeAll() }
                known[id] = version
            }
            // The very version announced, already read back (this instance's own write), stays;
            // any other goes (versions are transaction ids: they do not commit in order).
            remembered.forget { key, value in key == id && value != version }
        }
    }

    /// Forgets `userID`'s version: something was just written for them.
    func forget(_ userID: UUID) {
        announced.withLock { $0[userID] = nil }
        remembered.forget { key, _ in key == userID }
    }

    /// `userID`'s data version if it is remembered now (nothing is read).
    func remembered(_ userID: UUID) -> Int64? {
        remembered.remembered(userID)
    }

    /// `userID`'s data version: remembered, or `read`.
    func version(_ userID: UUID, read: () throws -> Int64) throws -> Int64 {
        try remembered.value(userID, read: read, currentDespite: { value in announced.withLock { $0[userID] == value } }) ?? 0
    }
}
