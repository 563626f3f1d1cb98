import Foundation

/// Classes' versions (`class_version`) with their current members, remembered between requests
/// so a teacher's kept class page needs no database while nothing in it changed.
///
/// Forgotten when any member's data version is announced (`portal_readers`), when the class
/// itself is (`class:<id>`: someone joined, left or was removed, a link was made or revoked),
/// and by every write of a teacher on this instance before the answer goes. Served only while
/// the notices arrive, and never longer than `recheck`.
final class ClassVersions: @unchecked Sendable {  // `state` only under `lock`
    private struct Entry {
        var version: String
        var members: Set<UUID>
        var readAt: Date
    }

    private let lock = ReadWriteLock()
    private var state = NoticedEntries<UUID, Entry>()
    private let recheck: TimeInterval
    private let clock: @Sendable () -> Date
    private static let capacity = 10_000

    init(recheck: TimeInterval = 10, clock: @escaping @Sendable () -> Date) {
        self.recheck = recheck
        self.clock = clock
    }

    func follow(_ events: DatabaseEvents) {
        events.onReset { [self] listening in lock.writing { state.reset(listening: listening) } }
        events.subscribe { [self] notice in
            guard notice.channel == "portal_readers" else { return }
            if notice.payload.hasPrefix("class:") {
                let id = UUID(uuidString: String(notice.payload.dropFirst(6)))
                lock.writing { state.forget { key, _ in id == nil || key == id } }
                return
            }
            let user = notice.payload.split(separator: ":").first.flatMap { UUID(uuidString: String($0)) }
            lock.writing { state.forget { _, entry in user.map(entry.members.contains) ?? true } }
        }
    }

    /// Forgets every class: a teacher wrote something (a link, a removal) on this instance.
    func forgetAll() {
        lock.writing { state.forget { _, _ in true } }
    }

    /// The class's version: remembered, or `read` (with its members; nil when the reader may
    /// not see the class) and remembered unless a notice arrived meanwhile.
    func version(_ classID: UUID, read: () throws -> (version: String, members: [UUID])?) throws -> String? {
        let now = clock()
        let (remembered, generation) = lock.reading { () -> (String?, UInt64?) in
            guard state.enabled else { return (nil, nil) }
            if let entry = state.entries[classID], entry.readAt <= now, now.timeIntervalSince(entry.readAt) < recheck {
                return (entry.version, nil)
            }
            return (nil, state.generation)
        }
        if let remembered { return remembered }
        guard let value = try read() else { return nil }
        if let generation {
            lock.writing {
                guard state.enabled, state.generation == generation else { return }
                if state.entries.count >= Self.capacity { state.entries.removeAll() }
                state.entries[classID] = Entry(version: value.version, members: Set(value.members), readAt: now)
            }
        }
        return value.version
    }
}
