import ExamData
import Foundation

/// Classes' versions (`class_version`) with their current members, remembered between requests
/// so a teacher's kept class page needs no database while nothing in it changed.
///
/// Forgotten when any member's data version is announced (`portal_readers`, by the database or
/// by another instance's ReaderAnnouncer), when the class
/// itself is (`class:<id>`: someone joined, left or was removed, a link was made or revoked),
/// and by every write of a teacher on this instance before the answer goes.
final class ClassVersions: Sendable {
    private let remembered: RememberedValues<UUID, (version: String, members: Set<UUID>)>

    init(recheck: TimeInterval = 10, clock: @escaping @Sendable () -> Date) {
        remembered = RememberedValues(recheck: recheck, capacity: 10_000, clock: clock)
    }

    /// `instance` names this instance in announcements (its own are not news to it).
    func follow(_ events: DatabaseEvents, instance: String) {
        events.onReset { [remembered] listening in remembered.reset(listening: listening) }
        events.subscribe { [remembered] notice in
            guard notice.channel == "portal_readers" else { return }
            if notice.payload.hasPrefix("class:") {
                let id = UUID(uuidString: String(notice.payload.dropFirst(6)))
                remembered.forget { key, _ in id == nil || key == id }
                return
            }
            if let readers = ReaderNotice.readers(in: notice.payload, otherThan: instance) {
                let written = Set(readers)
                remembered.forget { _, entry in !entry.members.isDisjoint(with: written) }
                return
            }
            let user = notice.payload.split(separator: ":").first.flatMap { UUID(uuidString: String($0)) }
            remembered.forget { _, entry in user.map(entry.members.contains) ?? true }
        }
    }

    /// Forgets every class: a teacher wrote something (a link, a removal) on this instance.
    func forgetAll() {
        remembered.forget { _, _ in true }
    }

    /// The class's version if it is remembered now (nothing is read).
    func remembered(_ classID: UUID) -> String? {
        remembered.remembered(classID)?.version
    }

    /// The class's version: remembered, or `read` (with its members; nil when the reader may
    /// not see the class).
    func version(_ classID: UUID, read: () throws -> (version: String, members: [UUID])?) throws -> String? {
        try remembered.value(classID, read: { try read().map { ($0.version, Set($0.members)) } })?.version
    }
}
